package io.trainplane.spec;

/**
 * What a node of an instance type leaves its pods: capacity less what the EKS AMI reserves
 * (awslabs/amazon-eks-ami, nodeadm internal/kubelet/config.go, and the AL2 bootstrap.sh before
 * it; https://docs.aws.amazon.com/eks/latest/best-practices/node-and-workload-efficiency.html):
 * kube-reserved cpu of 6 % of the first core, 1 % of the second, 0.5 % of the third and fourth and
 * 0.25 % of every core above four; kube-reserved memory of 11 MiB per pod the node may run plus
 * 255 MiB; and the hard eviction threshold memory.available 100Mi. The spec rules check the pods
 * against it and the local twin's nodes report it.
 */
public record NodeAllocatable(long millicores, long memoryMiB, int pods) {
    static final long EVICTION_THRESHOLD_MIB = 100;

    /**
     * Test seam, set only by tests in this package (WrongTableRunTest) and reset by them: when true,
     * this table is wrong on purpose (the AMI reserves nothing), to show that the local twin judges
     * the run with its own kubelet figures, not this table. Always false outside those tests.
     */
    static volatile boolean wrongForTests;

    public static NodeAllocatable of(InstanceShapes.Shape shape) {
        if (wrongForTests) {
            return new NodeAllocatable(shape.vcpus() * 1000L, shape.memoryMiB(), shape.maxPods());
        }
        return new NodeAllocatable(
                shape.vcpus() * 1000L - reservedMillicores(shape.vcpus()),
                shape.memoryMiB() - reservedMemoryMiB(shape.maxPods()) - EVICTION_THRESHOLD_MIB,
                shape.maxPods());
    }

    public static long reservedMillicores(int cores) {
        double reserved = 0;
        for (int core = 1; core <= cores; core++) {
            reserved += core == 1 ? 60 : core == 2 ? 10 : core <= 4 ? 5 : 2.5;
        }
        return (long) reserved;
    }

    public static long reservedMemoryMiB(int maxPods) {
        return 11L * maxPods + 255;
    }
}
