package io.trainplane.aws;

import java.util.Objects;

/**
 * The IAM roles the stack made for run clusters: EKS's service role, the nodes' instance role,
 * the role the EFS CSI driver's controller assumes through Pod Identity, and the role the run's
 * pods assume through Pod Identity to write the run's outputs to the artifacts bucket ("" when the
 * stack has none), and the role the FSx CSI driver's controller assumes through Pod Identity (""
 * when the stack has none).
 */
public record ClusterRoles(
        String clusterRoleArn,
        String nodeRoleArn,
        String efsCsiRoleArn,
        String runOutputsRoleArn,
        String fsxCsiRoleArn) {
    public ClusterRoles {
        Objects.requireNonNull(clusterRoleArn, "clusterRoleArn");
        Objects.requireNonNull(nodeRoleArn, "nodeRoleArn");
        Objects.requireNonNull(runOutputsRoleArn, "runOutputsRoleArn");
        Objects.requireNonNull(fsxCsiRoleArn, "fsxCsiRoleArn");
    }

    /** Roles of a stack without an FSx CSI driver role. */
    public ClusterRoles(String clusterRoleArn, String nodeRoleArn, String efsCsiRoleArn, String runOutputsRoleArn) {
        this(clusterRoleArn, nodeRoleArn, efsCsiRoleArn, runOutputsRoleArn, "");
    }

    /** Roles of a stack without a run outputs role. */
    public ClusterRoles(String clusterRoleArn, String nodeRoleArn, String efsCsiRoleArn) {
        this(clusterRoleArn, nodeRoleArn, efsCsiRoleArn, "");
    }
}
