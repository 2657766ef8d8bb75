package io.trainplane.local.sim;

import io.trainplane.spec.InstanceShapes;
import java.util.Optional;

/**
 * What a node of an EC2 instance type offers Kubernetes: vCPUs, memory and NVIDIA GPUs from the EC2
 * instance type pages (https://aws.amazon.com/ec2/instance-types/ : general purpose m5, compute
 * optimized c5, burstable t3; accelerated computing g5, p4d, p5:
 * https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html), the most pods the EKS AMI lets the
 * kubelet run with the VPC CNI (awslabs/amazon-eks-ami, nodeadm/internal/kubelet/eni_max_pods.go
 * calculateStandardMaxPods, in {@link InstanceShapes.Shape#maxPods}) and the EFA interfaces, all
 * from the EC2 instance catalog ({@link InstanceShapes}). How the kubelet turns these into
 * allocatable is {@link io.trainplane.spec.NodeAllocatable}.
 */
public final class InstanceTypes {
    /** One instance type: memory in MiB, architecture as Kubernetes names it (kubernetes.io/arch: amd64, arm64). */
    public record InstanceType(String name, int vcpus, long memoryMiB, int gpus, int maxPods, String architecture) {
        /** EFA interfaces an EFA-capable type takes (one per network card); 0 for a type without EFA. */
        public int efaInterfaces() {
            return InstanceShapes.of(name)
                    .map(InstanceShapes.Shape::efaInterfaces)
                    .orElse(0);
        }
    }

    private InstanceTypes() {}

    public static Optional<InstanceType> of(String name) {
        // The spec's table, which the spec rules check pods against: the twin's nodes are those shapes.
        return InstanceShapes.of(name)
                .map(shape -> new InstanceType(
                        name,
                        shape.vcpus(),
                        shape.memoryMiB(),
                        shape.gpus(),
                        shape.maxPods(),
                        InstanceShapes.ARM64.equals(shape.architecture()) ? "arm64" : "amd64"));
    }

    /** The type, or an error naming the table to extend: a node of an unknown type cannot be simulated. */
    public static InstanceType require(String name) {
        return of(name).orElseThrow(() -> new IllegalArgumentException("instance type " + name
                + " is not in the EC2 instance catalog (src/main/resources/ec2/instance-types.json)"));
    }
}
