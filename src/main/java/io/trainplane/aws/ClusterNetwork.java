package io.trainplane.aws;

import java.util.List;

/** The subnets and security groups a run's cluster, nodes and mount targets are placed in. */
public record ClusterNetwork(List<String> subnetIds, List<String> securityGroupIds) {}
