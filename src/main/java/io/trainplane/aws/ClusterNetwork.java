package io.trainplane.aws;

import java.util.List;
import java.util.Objects;

/**
 * Where a run's cluster and nodes live: the stack's subnets and security groups, and who may
 * reach the cluster's public API endpoint ({@code publicAccessCidrs}; empty: EKS's default,
 * {@code 0.0.0.0/0}).
 */
public record ClusterNetwork(List<String> subnetIds, List<String> securityGroupIds, List<String> publicAccessCidrs) {
    public ClusterNetwork {
        subnetIds = List.copyOf(Objects.requireNonNull(subnetIds, "subnetIds"));
        securityGroupIds = List.copyOf(Objects.requireNonNull(securityGroupIds, "securityGroupIds"));
        publicAccessCidrs = List.copyOf(Objects.requireNonNull(publicAccessCidrs, "publicAccessCidrs"));
        if (subnetIds.isEmpty()) {
            throw new IllegalArgumentException(
                    "an EKS cluster needs at least one subnet (two, in different zones, on AWS)");
        }
        List<String> problems = PublicAccessCidrs.problems(publicAccessCidrs);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
    }

    /** A network whose public endpoint is open to every address (EKS's default). */
    public ClusterNetwork(List<String> subnetIds, List<String> securityGroupIds) {
        this(subnetIds, securityGroupIds, List.of());
    }
}
