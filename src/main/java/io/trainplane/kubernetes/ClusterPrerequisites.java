package io.trainplane.kubernetes;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.trainplane.spec.Launcher;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.VolumeType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * What a run needs installed on a cluster it does not create ({@code cluster.mode: existing}),
 * checked before the run creates anything: a run that would otherwise wait for pods that never
 * start (a volume no CSI driver mounts, GPUs no device plugin advertises) or for a PyTorchJob or
 * MPIJob no operator runs is refused at once, with what to install.
 *
 * <p>Reads only: the CRD by name, the CSIDriver by name, the nodes' allocatable resources. On
 * RBAC the run's role needs {@code get} on {@code customresourcedefinitions}
 * (apiextensions.k8s.io) and {@code csidrivers} (storage.k8s.io) and {@code list} on
 * {@code nodes} (docs/deploying.md: Using an existing cluster).
 */
public final class ClusterPrerequisites {
    public static final String EFS_CSI_DRIVER = "efs.csi.aws.com";
    public static final String FSX_CSI_DRIVER = "fsx.csi.aws.com";
    static final String INSTALL_FSX_CSI_DRIVER =
            "aws eks create-addon --cluster-name <cluster> --addon-name aws-fsx-csi-driver"
                    + " --pod-identity-associations serviceAccount=fsx-csi-controller-sa,roleArn=<role with"
                    + " AmazonFSxFullAccess> (https://docs.aws.amazon.com/eks/latest/userguide/fsx-csi-create.html)";
    /** Extended resources that only a device plugin puts in a node's allocatable. */
    public static final String GPU_RESOURCE = "nvidia.com/gpu";

    public static final String EFA_RESOURCE = "vpc.amazonaws.com/efa";

    static final String INSTALL_EFS_CSI_DRIVER =
            "aws eks create-addon --cluster-name <cluster> --addon-name aws-efs-csi-driver"
                    + " --pod-identity-associations serviceAccount=efs-csi-controller-sa,roleArn=<EfsCsiRoleArn>"
                    + " (https://docs.aws.amazon.com/eks/latest/userguide/efs-csi.html)";
    static final String INSTALL_NVIDIA_DEVICE_PLUGIN = "kubectl create -f"
            + " https://raw.githubusercontent.com/NVIDIA/k8s-device-plugin/v0.17.0/deployments/static/nvidia-device-plugin.yml"
            + " on nodes of an EKS accelerated AMI (https://docs.aws.amazon.com/eks/latest/userguide/ml-eks-k8s-device-plugin.html,"
            + " https://docs.aws.amazon.com/eks/latest/eksctl/gpu-support.html)";
    static final String INSTALL_EFA_DEVICE_PLUGIN = "helm install aws-efa-k8s-device-plugin"
            + " --namespace kube-system eks/aws-efa-k8s-device-plugin (helm repo add eks https://aws.github.io/eks-charts;"
            + " https://docs.aws.amazon.com/eks/latest/userguide/device-management-efa.html)";

    /** What of the cluster a run uses. */
    public record Needs(
            boolean pyTorchJob, boolean efsVolume, int gpusPerWorker, boolean efa, boolean mpiJob, boolean fsxVolume) {
        public Needs(boolean pyTorchJob, boolean efsVolume, int gpusPerWorker, boolean efa) {
            this(pyTorchJob, efsVolume, gpusPerWorker, efa, false, false);
        }

        public static Needs of(RunSpec spec) {
            return new Needs(
                    spec.training().launcher() == Launcher.PYTORCHJOB,
                    spec.volume().type() == VolumeType.EFS,
                    // A warm node group has no nodes yet: ScaleWorkers checks its GPUs once they are Ready.
                    spec.cluster().warm() ? 0 : spec.training().gpusPerWorker(),
                    spec.cluster().nodeGroup() != null
                            && spec.cluster().nodeGroup().efa(),
                    spec.training().launcher() == Launcher.MPIJOB,
                    spec.volume().type() == VolumeType.FSX_LUSTRE);
        }
    }

    /** One thing the cluster lacks: what it is, and how to install it. */
    public record Missing(String what, String install) {
        @Override
        public String toString() {
            return what + ": " + install;
        }
    }

    private final KubernetesClient client;

    public ClusterPrerequisites(KubernetesClient client) {
        this.client = client;
    }

    /** Everything {@code needs} asks for that the cluster lacks; empty when the run can go. */
    public List<Missing> missing(Needs needs) {
        List<Missing> missing = new ArrayList<>();
        if (needs.pyTorchJob() && !PyTorchJobs.operatorInstalled(client)) {
            missing.add(new Missing(
                    "the CRD " + PyTorchJobs.CRD_NAME + " (training.launcher is pytorchjob; the Kubeflow training"
                            + " operator is not installed)",
                    "install the training operator " + TrainingOperator.VERSION + ": " + PyTorchJobs.INSTALL));
        }
        MpiJobs.Served mpiJobs = needs.mpiJob() ? MpiJobs.served(client) : MpiJobs.Served.V2BETA1;
        if (mpiJobs == MpiJobs.Served.NONE) {
            missing.add(new Missing(
                    "the CRD " + MpiJobs.CRD_NAME + " (training.launcher is mpijob; the Kubeflow MPI operator is"
                            + " not installed)",
                    "install the MPI operator " + TrainingOperator.MPI.version() + ": " + MpiJobs.INSTALL));
        } else if (mpiJobs == MpiJobs.Served.OTHER_VERSIONS) {
            missing.add(new Missing(
                    "the CRD " + MpiJobs.CRD_NAME + " serving " + MpiJobs.CONTEXT.getGroup() + "/"
                            + MpiJobs.CONTEXT.getVersion() + " (training.launcher is mpijob; the cluster's CRD of"
                            + " that name is the training operator's, kubeflow.org/v1 only)",
                    "install the MPI operator " + TrainingOperator.MPI.version() + " (" + MpiJobs.INSTALL
                            + ") on a cluster without the training operator's MPIJob controller, or use"
                            + " training.launcher \"pytorchjob\""));
        }
        if (needs.efsVolume()
                && client.storage().v1().csiDrivers().withName(EFS_CSI_DRIVER).get() == null) {
            missing.add(new Missing(
                    "the CSIDriver " + EFS_CSI_DRIVER + " (volume.type is efs; the Amazon EFS CSI driver is not"
                            + " installed, so no pod could mount the volume)",
                    "install the EKS add-on aws-efs-csi-driver: " + INSTALL_EFS_CSI_DRIVER));
        }
        if (needs.fsxVolume()
                && client.storage().v1().csiDrivers().withName(FSX_CSI_DRIVER).get() == null) {
            missing.add(new Missing(
                    "the CSIDriver " + FSX_CSI_DRIVER + " (volume.type is fsx-lustre; the FSx for Lustre CSI driver is"
                            + " not installed, so no pod could mount the volume)",
                    "install the EKS add-on aws-fsx-csi-driver: " + INSTALL_FSX_CSI_DRIVER));
        }
        List<Node> nodes =
                needs.gpusPerWorker() > 0 || needs.efa() ? client.nodes().list().getItems() : List.of();
        if (needs.gpusPerWorker() > 0 && !advertised(nodes, GPU_RESOURCE)) {
            missing.add(new Missing(
                    "a node with allocatable " + GPU_RESOURCE + " (training.gpusPerWorker is " + needs.gpusPerWorker()
                            + "; of " + nodes.size() + " nodes none advertises GPUs: no GPU nodes, or the NVIDIA"
                            + " device plugin does not run on them)",
                    "install the NVIDIA device plugin: " + INSTALL_NVIDIA_DEVICE_PLUGIN));
        }
        if (needs.efa() && !advertised(nodes, EFA_RESOURCE)) {
            missing.add(new Missing(
                    "a node with allocatable " + EFA_RESOURCE + " (efa is on; of " + nodes.size()
                            + " nodes none advertises EFA interfaces: no EFA-enabled nodes, or the EFA device plugin"
                            + " does not run on them)",
                    "install the EFA device plugin: " + INSTALL_EFA_DEVICE_PLUGIN));
        }
        return missing;
    }

    /** Whether some node has a positive allocatable quantity of {@code resource}. */
    public static boolean advertised(List<Node> nodes, String resource) {
        return nodes.stream()
                .map(n -> n.getStatus() == null || n.getStatus().getAllocatable() == null
                        ? null
                        : n.getStatus().getAllocatable().get(resource))
                .filter(q -> q != null)
                .map(Quantity::getNumericalAmount)
                .anyMatch(amount -> amount.compareTo(BigDecimal.ZERO) > 0);
    }
}
