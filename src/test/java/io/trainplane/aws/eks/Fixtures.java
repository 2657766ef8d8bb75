package io.trainplane.aws.eks;

import io.trainplane.aws.ClusterNetwork;
import io.trainplane.aws.ClusterRoles;
import io.trainplane.aws.RunTags;
import io.trainplane.spec.CapacityType;
import io.trainplane.spec.ClusterMode;
import io.trainplane.spec.ClusterSpec;
import io.trainplane.spec.Names;
import io.trainplane.spec.NodeGroupSpec;
import java.util.List;

/** Inputs the EKS tests share. */
final class Fixtures {
    static final String RUN_ID = "cifar10-nightly-001";
    static final Names NAMES = new Names(RUN_ID);
    static final RunTags TAGS = new RunTags("ml-prod", RUN_ID);
    static final NodeGroupSpec GPU_NODES = new NodeGroupSpec("g5.12xlarge", 2, 4, CapacityType.ON_DEMAND, null, false);
    static final NodeGroupSpec CPU_NODES = new NodeGroupSpec("m6i.2xlarge", 3, 0, CapacityType.SPOT, null, false);
    static final ClusterSpec CLUSTER = new ClusterSpec(ClusterMode.CREATE, null, "1.35", GPU_NODES);
    static final ClusterNetwork NETWORK = new ClusterNetwork(List.of("subnet-0aa", "subnet-0bb"), List.of("sg-0cc"));
    static final ClusterRoles ROLES = new ClusterRoles(
            "arn:aws:iam::123456789012:role/trainplane-cluster",
            "arn:aws:iam::123456789012:role/trainplane-nodes",
            "arn:aws:iam::123456789012:role/trainplane-efs-csi");

    private Fixtures() {}

    static NodeGroupSpec nodes(String instanceType, int gpus) {
        return new NodeGroupSpec(instanceType, 1, gpus, CapacityType.ON_DEMAND, null, false);
    }
}
