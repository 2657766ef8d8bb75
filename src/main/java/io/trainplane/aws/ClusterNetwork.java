package io.trainplane.aws;

import java.util.List;
import java.util.Objects;

/** Where a run's cluster and nodes live: the stack's subnets and security groups. */
public record ClusterNetwork(List<String> subnetIds, List<String> securityGroupIds) {
    public ClusterNetwork {
        subnetIds = List.copyOf(Objects.requireNonNull(subnetIds, "subnetIds"));
        securityGroupIds = List.copyOf(Objects.requireNonNull(securityGroupIds, "securityGroupIds"));
        if (subnetIds.isEmpty()) {
            throw new IllegalArgumentException("an EKS cluster needs at least one subnet (two, in different zones, on AWS)");
        }
    }
}
