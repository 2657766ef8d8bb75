package io.trainplane.local.sim;

import io.trainplane.aws.ec2.EfaInterfaces;
import io.trainplane.spec.InstanceShapes;
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

    /**
     * Most pods per node, by type (eni_max_pods.go's formula; c5a.2xlarge and c6i.2xlarge have 4
     * ENIs of 15 IPv4 addresses, as c5.2xlarge). vCPUs, memory and GPUs come from the spec's
     * {@link InstanceShapes}, the table a diversified node group is checked against, so the nodes
     * the twin simulates are the shapes the spec rules assumed.
     */
    private static final Map<String, Integer> MAX_PODS = Map.ofEntries(
            Map.entry("t3.medium", 17),
            Map.entry("c5.xlarge", 58),
            Map.entry("c5.2xlarge", 58),
            Map.entry("c5.4xlarge", 234),
            Map.entry("c5a.2xlarge", 58),
            Map.entry("c6i.2xlarge", 58),
            Map.entry("m5.large", 29),
            Map.entry("m5.xlarge", 58),
            Map.entry("m5.2xlarge", 58),
            Map.entry("g5.xlarge", 58),
            Map.entry("g5.2xlarge", 58),
            Map.entry("g5.12xlarge", 737),
            Map.entry("g5.48xlarge", 345),
            Map.entry("p4d.24xlarge", 737),
            Map.entry("p5.48xlarge", 100));

    private InstanceTypes() {}

    public static Optional<InstanceType> of(String name) {
        Integer maxPods = MAX_PODS.get(name);
        return maxPods == null
                ? Optional.empty()
                : InstanceShapes.of(name)
                        .map(shape -> new InstanceType(
                                name, shape.vcpus(), shape.memoryGiB() * 1024L, shape.gpus(), maxPods));
    }

    /** The type, or an error naming the table to extend: a node of an unknown type cannot be simulated. */
    public static InstanceType require(String name) {
        return of(name).orElseThrow(() -> new IllegalArgumentException("instance type " + name
                + " is not in the simulated instance table: add it to local/sim/InstanceTypes"));
    }
}
