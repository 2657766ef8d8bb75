package io.trainplane.kubernetes;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import java.util.List;

/**
 * The run's MPIJobs through the API server: whether the MPI operator's CRD is there, lookups,
 * deletes by label. The operator labels the pods it creates for an MPIJob (workers, and the
 * launcher Job's) with the job's name and their role (pkg/apis/kubeflow/v2beta1/constants.go).
 */
public final class MpiJobs {
    public static final String CRD_NAME = "mpijobs.kubeflow.org";
    /** The label the MPI operator puts on an MPIJob's pods (the training operator's too). */
    public static final String JOB_NAME_LABEL = PyTorchJobs.JOB_NAME_LABEL;
    /** launcher or worker. */
    public static final String JOB_ROLE_LABEL = "training.kubeflow.org/job-role";

    public static final String REPLICA_INDEX_LABEL = "training.kubeflow.org/replica-index";
    public static final String OPERATOR_NAME_LABEL = "training.kubeflow.org/operator-name";
    public static final String INSTALL = "kubectl apply --server-side -f"
            + " https://raw.githubusercontent.com/kubeflow/mpi-operator/v0.8.2/deploy/v2beta1/mpi-operator.yaml";
    public static final CustomResourceDefinitionContext CONTEXT = new CustomResourceDefinitionContext.Builder()
            .withGroup("kubeflow.org")
            .withVersion("v2beta1")
            .withPlural("mpijobs")
            .withKind(MpiJobManifest.KIND)
            .withScope("Namespaced")
            .build();

    private MpiJobs() {}

    /**
     * Whether the API server serves MPIJobs of {@code kubeflow.org/v2beta1}: the MPI operator's CRD.
     * The training operator v1.9 installs a CRD of the same name serving only {@code v1} (its own
     * MPIJob controller), which does not do.
     */
    public static boolean operatorInstalled(KubernetesClient client) {
        return served(client) == Served.V2BETA1;
    }

    /** What the cluster's {@value #CRD_NAME} serves. */
    public enum Served {
        NONE,
        /** Only the training operator's kubeflow.org/v1. */
        OTHER_VERSIONS,
        V2BETA1
    }

    public static Served served(KubernetesClient client) {
        var crd = client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName(CRD_NAME)
                .get();
        if (crd == null) {
            return Served.NONE;
        }
        return crd.getSpec().getVersions().stream()
                        .anyMatch(v -> CONTEXT.getVersion().equals(v.getName()) && Boolean.TRUE.equals(v.getServed()))
                ? Served.V2BETA1
                : Served.OTHER_VERSIONS;
    }

    public static GenericKubernetesResource get(KubernetesClient client, String namespace, String name) {
        return KubeflowJobs.get(client, CONTEXT, namespace, name);
    }

    public static List<GenericKubernetesResource> list(
            KubernetesClient client, String namespace, String label, String value) {
        return KubeflowJobs.list(client, CONTEXT, namespace, label, value);
    }

    public static void delete(KubernetesClient client, String namespace, String label, String value) {
        KubeflowJobs.delete(client, CONTEXT, namespace, label, value);
    }
}
