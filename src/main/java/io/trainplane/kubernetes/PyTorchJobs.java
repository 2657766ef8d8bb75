package io.trainplane.kubernetes;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import java.net.HttpURLConnection;
import java.util.List;
import java.util.Map;

/**
 * The run's PyTorchJobs through the API server: whether the training operator's CRD is there,
 * lookups, deletes by label. Without the CRD there are none (listing and deleting tolerate 404).
 */
public final class PyTorchJobs {
    public static final String CRD_NAME = "pytorchjobs.kubeflow.org";
    /** The label the training operator puts on a PyTorchJob's pods. */
    public static final String JOB_NAME_LABEL = "training.kubeflow.org/job-name";

    public static final String REPLICA_TYPE_LABEL = "training.kubeflow.org/replica-type";
    public static final String INSTALL = "kubectl apply --server-side -k "
            + "\"github.com/kubeflow/training-operator.git/manifests/overlays/standalone?ref=v1.9.4\"";
    public static final CustomResourceDefinitionContext CONTEXT = new CustomResourceDefinitionContext.Builder()
            .withGroup("kubeflow.org")
            .withVersion("v1")
            .withPlural("pytorchjobs")
            .withKind(PyTorchJobManifest.KIND)
            .withScope("Namespaced")
            .build();

    private PyTorchJobs() {}

    public static boolean operatorInstalled(KubernetesClient client) {
        return client.apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .withName(CRD_NAME)
                        .get()
                != null;
    }

    public static GenericKubernetesResource get(KubernetesClient client, String namespace, String name) {
        return client.genericKubernetesResources(CONTEXT)
                .inNamespace(namespace)
                .withName(name)
                .get();
    }

    public static void create(KubernetesClient client, GenericKubernetesResource job) {
        client.genericKubernetesResources(CONTEXT)
                .inNamespace(job.getMetadata().getNamespace())
                .resource(job)
                .create();
    }

    public static List<GenericKubernetesResource> list(
            KubernetesClient client, String namespace, String label, String value) {
        try {
            return client.genericKubernetesResources(CONTEXT)
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

    public static void delete(KubernetesClient client, String namespace, String label, String value) {
        try {
            client.genericKubernetesResources(CONTEXT)
                    .inNamespace(namespace)
                    .withLabel(label, value)
                    .delete();
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) {
                throw e;
            }
        }
    }

    /** The status field {@code key} of a PyTorchJob, or null. */
    @SuppressWarnings("unchecked")
    public static Object status(GenericKubernetesResource job, String key) {
        Object status = job.getAdditionalProperties().get("status");
        return status instanceof Map<?, ?> map ? ((Map<String, Object>) map).get(key) : null;
    }
}
