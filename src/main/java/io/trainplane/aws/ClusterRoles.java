package io.trainplane.aws;

import java.util.Objects;

/**
 * The IAM roles the stack made for run clusters: EKS's service role, the nodes' instance role,
 * and the role the EFS CSI driver's controller assumes through Pod Identity.
 */
public record ClusterRoles(String clusterRoleArn, String nodeRoleArn, String efsCsiRoleArn) {
    public ClusterRoles {
        Objects.requireNonNull(clusterRoleArn, "clusterRoleArn");
        Objects.requireNonNull(nodeRoleArn, "nodeRoleArn");
    }
}
