package io.trainplane.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionCondition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.trainplane.aws.ResourceState;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * The Kubeflow training operator (the controller of {@code PyTorchJob}s) on a cluster the run
 * creates: its published release manifest, shipped unchanged in the jar (kubeflow/trainer tag
 * v1.9.4, {@code manifests/overlays/standalone}, rendered by kustomize; see the README beside it),
 * applied object by object, and its readiness: the {@code pytorchjobs.kubeflow.org} CRD
 * Established and the operator's Deployment available.
 *
 * <p>Every object is created as published (no run label): the operator belongs to the cluster,
 * not to the run, and goes when the cluster is deleted. Creating rather than a client-side apply
 * matters: the CRDs are too large for {@code kubectl.kubernetes.io/last-applied-configuration}
 * (hence the project's own {@code kubectl apply --server-side}).
 */
public final class TrainingOperator {
    public static final String VERSION = "v1.9.4";
    public static final String NAMESPACE = "kubeflow";
    public static final String DEPLOYMENT = "training-operator";
    /** Where the manifest sits in the jar, byte for byte the release's file. */
    static final String MANIFEST =
            "/io/trainplane/kubernetes/kubeflow/training-operator-" + VERSION + "/training-operator.yaml";

    /**
     * How each kind of the manifest is reached, declared rather than discovered: the Lambda jar
     * leaves out the typed models of most of them (they travel as generic resources), and a
     * discovery request per object would cost a round trip each. A kind the manifest gains in a
     * later release fails the load, and the test that loads it.
     */
    static final Map<String, ResourceDefinitionContext> KINDS = Map.of(
            "Namespace", kind("", "v1", "Namespace", "namespaces", false),
            "CustomResourceDefinition",
                    kind("apiextensions.k8s.io", "v1", "CustomResourceDefinition", "customresourcedefinitions", false),
            "ServiceAccount", kind("", "v1", "ServiceAccount", "serviceaccounts", true),
            "ClusterRole", kind("rbac.authorization.k8s.io", "v1", "ClusterRole", "clusterroles", false),
            "ClusterRoleBinding",
                    kind("rbac.authorization.k8s.io", "v1", "ClusterRoleBinding", "clusterrolebindings", false),
            "Secret", kind("", "v1", "Secret", "secrets", true),
            "Service", kind("", "v1", "Service", "services", true),
            "Deployment", kind("apps", "v1", "Deployment", "deployments", true),
            "ValidatingWebhookConfiguration",
                    kind(
                            "admissionregistration.k8s.io",
                            "v1",
                            "ValidatingWebhookConfiguration",
                            "validatingwebhookconfigurations",
                            false));

    /**
     * Where the operator stands, and whether its CRD was seen Established: it stays so, and a
     * caller that remembers it ({@link #ensure(boolean)}) need not read the CRD, some 600 KB of
     * schema, on every look.
     */
    public record Status(ResourceState state, boolean crdEstablished) {}

    private final KubernetesClient client;

    public TrainingOperator(KubernetesClient client) {
        this.client = client;
    }

    /**
     * Installs what is not there yet and says where the operator stands; call again until Ready.
     * Safe to repeat: an object that already exists is adopted as it is (a retried step, a cluster
     * that had the operator already).
     */
    public ResourceState ensure() {
        return ensure(false).state();
    }

    /**
     * As {@link #ensure()}; with {@code crdEstablished} (an earlier look's {@link Status}, made
     * after every object was created) it reads only the Deployment, the one part still changing.
     * Should the Deployment be gone, it installs and looks as the first time.
     */
    public Status ensure(boolean crdEstablished) {
        if (crdEstablished) {
            Deployment deployment = deployment();
            if (deployment != null) {
                return new Status(deploymentState(deployment), true);
            }
        }
        if (!installed()) {
            for (GenericKubernetesResource object : Manifest.OBJECTS) {
                createOrAdopt(object);
            }
        }
        return status();
    }

    /**
     * Ready once the API server serves PyTorchJobs (the CRD's {@code Established} condition) and
     * the operator runs (its Deployment available): before that a PyTorchJob is refused, or its
     * validating webhook, whose failurePolicy is Fail, has no one to answer
     * (https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#create-a-customresourcedefinition,
     * https://kubernetes.io/docs/concepts/workloads/controllers/deployment/#deployment-status).
     */
    public ResourceState state() {
        return status().state();
    }

    private Status status() {
        CustomResourceDefinition crd = client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName(PyTorchJobs.CRD_NAME)
                .get();
        Deployment deployment = deployment();
        if (crd == null && deployment == null) {
            return new Status(new ResourceState.Gone(), false);
        }
        if (crd == null || !established(crd)) {
            return new Status(
                    new ResourceState.Creating("the CRD " + PyTorchJobs.CRD_NAME + " is not Established yet"), false);
        }
        return new Status(deploymentState(deployment), true);
    }

    private Deployment deployment() {
        return client.apps()
                .deployments()
                .inNamespace(NAMESPACE)
                .withName(DEPLOYMENT)
                .get();
    }

    /** The operator's state once its CRD is Established: its Deployment's rollout. */
    private static ResourceState deploymentState(Deployment deployment) {
        if (deployment == null) {
            return new ResourceState.Creating("the Deployment " + NAMESPACE + "/" + DEPLOYMENT + " is not created yet");
        }
        // A rollout that makes no progress for progressDeadlineSeconds (10 minutes by default) is
        // reported by the Deployment controller as Progressing=False, ProgressDeadlineExceeded.
        DeploymentCondition progressing = deploymentCondition(deployment, "Progressing");
        if (progressing != null
                && "False".equals(progressing.getStatus())
                && "ProgressDeadlineExceeded".equals(progressing.getReason())) {
            return new ResourceState.Failed("the training operator's Deployment " + NAMESPACE + "/" + DEPLOYMENT
                    + " did not become available (" + progressing.getMessage()
                    + "); see kubectl -n " + NAMESPACE + " describe pods -l control-plane=kubeflow-training-operator");
        }
        if (!available(deployment)) {
            return new ResourceState.Creating(
                    "the Deployment " + NAMESPACE + "/" + DEPLOYMENT + " has no available replica yet");
        }
        return new ResourceState.Ready();
    }

    /** The manifest's objects in the order they are created: the namespace, the CRDs, then as published. */
    public static List<GenericKubernetesResource> objects() {
        return Manifest.OBJECTS;
    }

    /** The manifest's bytes, exactly as the release publishes them. */
    public static byte[] manifestBytes() {
        try (InputStream in = TrainingOperator.class.getResourceAsStream(MANIFEST)) {
            if (in == null) {
                throw new IllegalStateException(MANIFEST + " is missing from the jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Whether the last object of the install exists: objects are created in order and a failed
     * create fails the step, so the last one there means every one before it is too.
     */
    private boolean installed() {
        GenericKubernetesResource last = Manifest.OBJECTS.get(Manifest.OBJECTS.size() - 1);
        return resource(last).get() != null;
    }

    private void createOrAdopt(GenericKubernetesResource object) {
        try {
            resource(object).create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
                throw e;
            }
        }
    }

    private io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource> resource(
            GenericKubernetesResource object) {
        ResourceDefinitionContext context = KINDS.get(object.getKind());
        var kind = client.genericKubernetesResources(context);
        return context.isNamespaceScoped()
                ? kind.inNamespace(object.getMetadata().getNamespace()).resource(object)
                : kind.resource(object);
    }

    private static boolean established(CustomResourceDefinition crd) {
        if (crd.getStatus() == null || crd.getStatus().getConditions() == null) {
            return false;
        }
        return crd.getStatus().getConditions().stream()
                .filter(c -> "Established".equals(c.getType()))
                .map(CustomResourceDefinitionCondition::getStatus)
                .anyMatch("True"::equals);
    }

    private static boolean available(Deployment deployment) {
        DeploymentCondition available = deploymentCondition(deployment, "Available");
        if (available != null) {
            return "True".equals(available.getStatus());
        }
        Integer replicas =
                deployment.getSpec() == null ? null : deployment.getSpec().getReplicas();
        Integer ready =
                deployment.getStatus() == null ? null : deployment.getStatus().getAvailableReplicas();
        return ready != null && ready >= Objects.requireNonNullElse(replicas, 1) && ready > 0;
    }

    private static DeploymentCondition deploymentCondition(Deployment deployment, String type) {
        if (deployment.getStatus() == null || deployment.getStatus().getConditions() == null) {
            return null;
        }
        return deployment.getStatus().getConditions().stream()
                .filter(c -> type.equals(c.getType()))
                .findFirst()
                .orElse(null);
    }

    private static ResourceDefinitionContext kind(
            String group, String version, String kind, String plural, boolean namespaced) {
        return new ResourceDefinitionContext.Builder()
                .withGroup(group)
                .withVersion(version)
                .withKind(kind)
                .withPlural(plural)
                .withNamespaced(namespaced)
                .build();
    }

    /** Read once per container, on first use: a few MB of YAML that most steps never need. */
    private static final class Manifest {
        static final List<GenericKubernetesResource> OBJECTS = load();

        private static List<GenericKubernetesResource> load() {
            // Jackson's YAML reader, document by document: about twice as fast as fabric8's
            // own YAML path on these 3.7 MB, nearly all of it the CRDs' schemas.
            LoaderOptions options = new LoaderOptions();
            options.setCodePointLimit(64 * 1024 * 1024);
            YAMLMapper yaml =
                    new YAMLMapper(YAMLFactory.builder().loaderOptions(options).build());
            List<GenericKubernetesResource> objects = new ArrayList<>();
            try (MappingIterator<JsonNode> documents =
                    yaml.readerFor(JsonNode.class).readValues(manifestBytes())) {
                while (documents.hasNext()) {
                    JsonNode document = documents.next();
                    if (document == null || document.isNull() || document.isMissingNode()) {
                        continue;
                    }
                    GenericKubernetesResource object =
                            KubernetesJson.SERIALIZATION.convertValue(document, GenericKubernetesResource.class);
                    if (!KINDS.containsKey(object.getKind())) {
                        throw new IllegalStateException("the training operator's manifest has a " + object.getKind()
                                + " (" + object.getMetadata().getName()
                                + "), which TrainingOperator.KINDS does not map");
                    }
                    objects.add(object);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            // Namespace first (the namespaced objects live in it), then the CRDs, then as published.
            objects.sort(Comparator.comparingInt(o -> switch (o.getKind()) {
                case "Namespace" -> 0;
                case "CustomResourceDefinition" -> 1;
                default -> 2;
            }));
            return List.copyOf(objects);
        }
    }
}
