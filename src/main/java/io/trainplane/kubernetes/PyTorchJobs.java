package io.trainplane.kubernetes;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import java.util.List;

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
        return KubeflowJobs.crdInstalled(client, CRD_NAME);
    }

    public static GenericKubernetesResource get(KubernetesClient client, String namespace, String name) {
        return KubeflowJobs.get(client, CONTEXT, namespace, name);
    }

    public static void create(KubernetesClient client, io.fabric8.kubernetes.api.model.HasMetadata job) {
        KubeflowJobs.create(client, CONTEXT, job);
    }

    public static List<GenericKubernetesResource> list(
            KubernetesClient client, String namespace, String label, String value) {
        return KubeflowJobs.list(client, CONTEXT, namespace, label, value);
    }

    public static void delete(KubernetesClient client, String namespace, String label, String value) {
        KubeflowJobs.delete(client, CONTEXT, namespace, label, value);
    }

    /** The status field {@code key} of a PyTorchJob (or MPIJob), or null. */
    public static Object status(GenericKubernetesResource job, String key) {
        return KubeflowJobs.status(job, key);
    }
}
