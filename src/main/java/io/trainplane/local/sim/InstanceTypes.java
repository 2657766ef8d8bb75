package io.trainplane.local.sim;

import java.util.Optional;

/**
 * What a node of an EC2 instance type offers Kubernetes: vCPUs, memory, NVIDIA GPUs, EFA interfaces
 * and architecture as the twin's EC2 describes the type ({@link Ec2InstanceFacts}), and the most
 * pods the EKS AMI lets the kubelet run ({@link EksAmiKubelet#maxPods}). How the kubelet turns these
 * into allocatable is {@link EksAmiKubelet#allocatable}. None of it is the product's catalog: the
 * twin's nodes are what EC2 and the AMI make of the type.
 */
public final class InstanceTypes {
    /** One instance type: memory in MiB, architecture as Kubernetes names it (kubernetes.io/arch: amd64, arm64). */
    public record InstanceType(
            String name, int vcpus, long memoryMiB, int gpus, int maxPods, String architecture, int efaInterfaces) {}

    private InstanceTypes() {}

    public static Optional<InstanceType> of(String name) {
        return Ec2InstanceFacts.of(name)
                .map(fact -> new InstanceType(
                        name,
                        fact.vcpus(),
                        fact.memoryMiB(),
                        fact.nvidiaGpus(),
                        EksAmiKubelet.maxPods(name),
                        "arm64".equals(fact.architecture()) ? "arm64" : "amd64",
                        fact.maxEfaInterfaces()));
    }

    /** The type, or an error naming the table to extend: a node of an unknown type cannot be simulated. */
    public static InstanceType require(String name) {
        return of(name).orElseThrow(() -> new IllegalArgumentException("instance type " + name
                + " is not in the twin's EC2 instance types (" + Ec2InstanceFacts.RESOURCE + ")"));
    }
}
