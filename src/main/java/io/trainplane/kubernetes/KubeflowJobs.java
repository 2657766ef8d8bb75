package io.trainplane.kubernetes;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import java.net.HttpURLConnection;
import java.util.List;
import java.util.Map;

/**
 * A Kubeflow operator's jobs (PyTorchJobs, MPIJobs) through the API server, by their CRD's
 * context: whether the CRD is there, lookups, deletes by label. Without the CRD there are none
 * (listing and deleting tolerate 404).
 */
final class KubeflowJobs {
    private KubeflowJobs() {}

    /** The context of {@code object} when it is one of the Kubeflow jobs Trainplane creates; null otherwise. */
    static CustomResourceDefinitionContext contextOf(HasMetadata object) {
        return switch (object.getKind()) {
            case PyTorchJobManifest.KIND -> PyTorchJobs.CONTEXT;
            case MpiJobManifest.KIND -> MpiJobs.CONTEXT;
            default -> null;
        };
    }

    static boolean crdInstalled(KubernetesClient client, String crdName) {
        return client.apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .withName(crdName)
                        .get()
                != null;
    }

    static GenericKubernetesResource get(
            KubernetesClient client, CustomResourceDefinitionContext context, String namespace, String name) {
        return client.genericKubernetesResources(context)
                .inNamespace(namespace)
                .withName(name)
                .get();
    }

    /**
     * Creates the job at the version {@code context} names (the one the cluster serves), whatever
     * model it was built with: as JSON, not through the typed model's own version.
     */
    static void create(KubernetesClient client, CustomResourceDefinitionContext context, HasMetadata job) {
        GenericKubernetesResource generic = job instanceof GenericKubernetesResource g
                ? g
                : KubernetesJson.SERIALIZATION.unmarshal(
                        KubernetesJson.SERIALIZATION.asJson(job), GenericKubernetesResource.class);
        client.genericKubernetesResources(context)
                .inNamespace(job.getMetadata().getNamespace())
                .resource(generic)
                .create();
    }

    static List<GenericKubernetesResource> list(
            KubernetesClient client,
            CustomResourceDefinitionContext context,
            String namespace,
            String label,
            String value) {
        try {
            return client.genericKubernetesResources(context)
                    .inNamespace(namespace)
                    .withLabel(label, value)
                    .list()
                    .getItems();
        } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
                return List.of();
            }
            throw e;
        }
    }

    static void delete(
            KubernetesClient client,
            CustomResourceDefinitionContext context,
            String namespace,
            String label,
            String value) {
        try {
            client.genericKubernetesResources(context)
                    .inNamespace(namespace)
                    .withLabel(label, value)
                    .delete();
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
                throw e;
            }
        }
    }

    /** The status field {@code key} of a job, or null. */
    @SuppressWarnings("unchecked")
    static Object status(GenericKubernetesResource job, String key) {
        Object status = job.getAdditionalProperties().get("status");
        return status instanceof Map<?, ?> map ? ((Map<String, Object>) map).get(key) : null;
    }
}
