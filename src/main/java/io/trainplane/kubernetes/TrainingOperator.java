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
 * A Kubeflow operator on a cluster the run creates: the training operator (the controller of
 * {@code PyTorchJob}s; kubeflow/trainer tag v1.9.4, {@code manifests/overlays/standalone}, rendered
 * by kustomize) or the MPI operator (of {@code MPIJob}s; kubeflow/mpi-operator v0.8.2, {@code
 * deploy/v2beta1/mpi-operator.yaml}) ({@link Release}): its published release manifest, shipped
 * unchanged in the jar (see the SOURCE.md beside each), applied object by object, and its
 * readiness: its job CRD Established and the operator's Deployment available.
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
     * One operator's release: what it is called in messages, its manifest in the jar, the CRD of
     * its jobs, its Deployment, and the pods' label selector to look at when it does not start.
     */
    public record Release(
            String what,
            String version,
            String manifest,
            String crdName,
            String namespace,
            String deployment,
            String pods) {}

    /** The training operator (PyTorchJobs). */
    public static final Release TRAINING = new Release(
            "the training operator",
            VERSION,
            MANIFEST,
            PyTorchJobs.CRD_NAME,
            NAMESPACE,
            DEPLOYMENT,
            "control-plane=kubeflow-training-operator");

    /** The MPI operator (MPIJobs). */
    public static final Release MPI = new Release(
            "the MPI operator",
            "v0.8.2",
            "/io/trainplane/kubernetes/kubeflow/mpi-operator-v0.8.2/mpi-operator.yaml",
            MpiJobs.CRD_NAME,
            "mpi-operator",
            "mpi-operator",
            "app=mpi-operator");

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
    private final Release release;

    public TrainingOperator(KubernetesClient client) {
        this(client, TRAINING);
    }

    public TrainingOperator(KubernetesClient client, Release release) {
        this.client = client;
        this.release = release;
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
            for (GenericKubernetesResource object : objects(release)) {
                createOrAdopt(object);
            }
        }
        return status();
    }

    /**
     * Ready once the API server serves the operator's jobs (the CRD's {@code Established}
     * condition) and the operator runs (its Deployment available): before that a job is refused,
     * or (the training operator's) validating webhook, whose failurePolicy is Fail, has no one to answer
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
                .withName(release.crdName())
                .get();
        Deployment deployment = deployment();
        if (crd == null && deployment == null) {
            return new Status(new ResourceState.Gone(), false);
        }
        if (crd == null || !established(crd)) {
            return new Status(
                    new ResourceState.Creating("the CRD " + release.crdName() + " is not Established yet"), false);
        }
        return new Status(deploymentState(deployment), true);
    }

    private Deployment deployment() {
        return client.apps()
                .deployments()
                .inNamespace(release.namespace())
                .withName(release.deployment())
                .get();
    }

    /** The operator's state once its CRD is Established: its Deployment's rollout. */
    private ResourceState deploymentState(Deployment deployment) {
        String name = release.namespace() + "/" + release.deployment();
        if (deployment == null) {
            return new ResourceState.Creating("the Deployment " + name + " is not created yet");
        }
        // A rollout that makes no progress for progressDeadlineSeconds (10 minutes by default) is
        // reported by the Deployment controller as Progressing=False, ProgressDeadlineExceeded.
        DeploymentCondition progressing = deploymentCondition(deployment, "Progressing");
        if (progressing != null
                && "False".equals(progressing.getStatus())
                && "ProgressDeadlineExceeded".equals(progressing.getReason())) {
            return new ResourceState.Failed(release.what() + "'s Deployment " + name
                    + " did not become available (" + progressing.getMessage()
                    + "); see kubectl -n " + release.namespace() + " describe pods -l " + release.pods());
        }
        if (!available(deployment)) {
            return new ResourceState.Creating("the Deployment " + name + " has no available replica yet");
        }
        return new ResourceState.Ready();
    }

    /** The training operator's manifest's objects in the order they are created: the namespace, the CRDs, then as published. */
    public static List<GenericKubernetesResource> objects() {
        return objects(TRAINING);
    }

    /** {@code release}'s manifest's objects in the order they are created. */
    public static List<GenericKubernetesResource> objects(Release release) {
        return Manifest.LOADED.computeIfAbsent(release, Manifest::load);
    }

    /** The training operator's manifest's bytes, exactly as the release publishes them. */
    public static byte[] manifestBytes() {
        return manifestBytes(TRAINING);
    }

    /** {@code release}'s manifest's bytes, exactly as the release publishes them. */
    public static byte[] manifestBytes(Release release) {
        try (InputStream in = TrainingOperator.class.getResourceAsStream(release.manifest())) {
            if (in == null) {
                throw new IllegalStateException(release.manifest() + " is missing from the jar");
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
        List<GenericKubernetesResource> objects = objects(release);
        GenericKubernetesResource last = objects.get(objects.size() - 1);
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

    /** Each read once per container, on first use: a few MB of YAML that most steps never need. */
    private static final class Manifest {
        static final Map<Release, List<GenericKubernetesResource>> LOADED =
                new java.util.concurrent.ConcurrentHashMap<>();

        private static List<GenericKubernetesResource> load(Release release) {
            // Jackson's YAML reader, document by document: about twice as fast as fabric8's
            // own YAML path on these 3.7 MB, nearly all of it the CRDs' schemas.
            LoaderOptions options = new LoaderOptions();
            options.setCodePointLimit(64 * 1024 * 1024);
            YAMLMapper yaml =
                    new YAMLMapper(YAMLFactory.builder().loaderOptions(options).build());
            List<GenericKubernetesResource> objects = new ArrayList<>();
            try (MappingIterator<JsonNode> documents =
                    yaml.readerFor(JsonNode.class).readValues(manifestBytes(release))) {
                while (documents.hasNext()) {
                    JsonNode document = documents.next();
                    if (document == null || document.isNull() || document.isMissingNode()) {
                        continue;
                    }
                    GenericKubernetesResource object =
                            KubernetesJson.SERIALIZATION.convertValue(document, GenericKubernetesResource.class);
                    if (!KINDS.containsKey(object.getKind())) {
                        throw new IllegalStateException(release.what() + "'s manifest has a " + object.getKind()
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
