package io.trainplane.aws.eks;

import java.util.Objects;

/** The IAM role an add-on's Kubernetes service account gets through EKS Pod Identity. */
public record PodIdentity(String serviceAccount, String roleArn) {
    /** The service account of the EFS CSI driver's controller. */
    public static final String EFS_CSI_CONTROLLER_SERVICE_ACCOUNT = "efs-csi-controller-sa";

    public PodIdentity {
        Objects.requireNonNull(serviceAccount, "serviceAccount");
        Objects.requireNonNull(roleArn, "roleArn");
    }

    /** The EFS CSI driver's controller assuming {@code roleArn}. */
    public static PodIdentity efsCsiController(String roleArn) {
        return new PodIdentity(EFS_CSI_CONTROLLER_SERVICE_ACCOUNT, roleArn);
    }
}
