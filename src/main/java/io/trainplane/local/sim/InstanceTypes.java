package io.trainplane.local.sim;

import io.trainplane.aws.ec2.EfaInterfaces;
import java.util.Map;
import java.util.Optional;

/**
 * What a node of an EC2 instance type offers Kubernetes: vCPUs, memory and NVIDIA GPUs from the EC2
 * instance type pages (https://aws.amazon.com/ec2/instance-types/ : general purpose m5, compute
 * optimized c5, burstable t3; accelerated computing g5, p4d, p5:
 * https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html), the most pods the EKS AMI lets the
 * kubelet run with the VPC CNI (awslabs/amazon-eks-ami, nodeadm/internal/kubelet/eni_max_pods.go
 * calculateStandardMaxPods: ENIs of the default network card × (IPv4 addresses per ENI − 1) + 2,
 * with each type's two figures from nodeadm/internal/kubelet/instance-info.jsonl, checked for every
 * row below; p5.48xlarge has 2 ENIs on its default card, hence 100), and the EFA interfaces of
 * {@link EfaInterfaces}. The
 * types are those of the price table (src/main/resources/prices) and the capacity reservations
 * ({@link SimulatedCapacity}), plus EKS's default t3.medium. How the kubelet turns these into
 * allocatable is {@link ClusterNodes#allocatable}.
 */
public final class InstanceTypes {
    /** One instance type: memory in MiB. */
    public record InstanceType(String name, int vcpus, long memoryMiB, int gpus, int maxPods) {
        /** EFA interfaces an EFA-capable type takes (one per network card); 0 for a type without EFA. */
        public int efaInterfaces() {
            return EfaInterfaces.known(name) ? EfaInterfaces.count(name) : 0;
        }
    }

    private static final Map<String, InstanceType> TYPES = Map.ofEntries(
            type("t3.medium", 2, 4, 0, 17),
            type("c5.xlarge", 4, 8, 0, 58),
            type("c5.2xlarge", 8, 16, 0, 58),
            type("c5.4xlarge", 16, 32, 0, 234),
            type("m5.large", 2, 8, 0, 29),
            type("m5.xlarge", 4, 16, 0, 58),
            type("m5.2xlarge", 8, 32, 0, 58),
            type("g5.xlarge", 4, 16, 1, 58),
            type("g5.2xlarge", 8, 32, 1, 58),
            type("g5.12xlarge", 48, 192, 4, 737),
            type("g5.48xlarge", 192, 768, 8, 345),
            type("p4d.24xlarge", 96, 1152, 8, 737),
            type("p5.48xlarge", 192, 2048, 8, 100));

    private InstanceTypes() {}

    private static Map.Entry<String, InstanceType> type(String name, int vcpus, int memoryGiB, int gpus, int maxPods) {
        return Map.entry(name, new InstanceType(name, vcpus, memoryGiB * 1024L, gpus, maxPods));
    }

    public static Optional<InstanceType> of(String name) {
        return Optional.ofNullable(TYPES.get(name));
    }

    /** The type, or an error naming the table to extend: a node of an unknown type cannot be simulated. */
    public static InstanceType require(String name) {
        return of(name).orElseThrow(() -> new IllegalArgumentException("instance type " + name
                + " is not in the simulated instance table: add it to local/sim/InstanceTypes"));
    }
}
