package io.trainplane.aws.eks;

import java.util.Objects;

/** The IAM role a Kubernetes service account (an add-on's, or the run's pods') gets through EKS Pod Identity. */
public record PodIdentity(String serviceAccount, String roleArn) {
    /** The service account of the EFS CSI driver's controller. */
    public static final String EFS_CSI_CONTROLLER_SERVICE_ACCOUNT = "efs-csi-controller-sa";
    /**
     * The service account of a run's training and evaluation pods, in the run's namespace: EKS Pod
     * Identity gives them the stack's run outputs role (template.yaml RunOutputsRole).
     */
    public static final String RUN_SERVICE_ACCOUNT = "trainplane-run";

    public PodIdentity {
        Objects.requireNonNull(serviceAccount, "serviceAccount");
        Objects.requireNonNull(roleArn, "roleArn");
    }

    /** The service account of the FSx CSI driver's controller (https://docs.aws.amazon.com/eks/latest/userguide/fsx-csi-create.html). */
    public static final String FSX_CSI_CONTROLLER_SERVICE_ACCOUNT = "fsx-csi-controller-sa";

    /** The FSx CSI driver's controller assuming {@code roleArn}. */
    public static PodIdentity fsxCsiController(String roleArn) {
        return new PodIdentity(FSX_CSI_CONTROLLER_SERVICE_ACCOUNT, roleArn);
    }

    /** The EFS CSI driver's controller assuming {@code roleArn}. */
    public static PodIdentity efsCsiController(String roleArn) {
        return new PodIdentity(EFS_CSI_CONTROLLER_SERVICE_ACCOUNT, roleArn);
    }
}
