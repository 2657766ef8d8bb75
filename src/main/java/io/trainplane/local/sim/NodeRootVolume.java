package io.trainplane.local.sim;

/**
 * The twin's own figures for a node's root volume, where containerd keeps the images: what EKS,
 * the AMI and the kubelet do with it, and the twin's estimates of what a node stores there (marked
 * so). None of it is the product's sizing table, which the twin's disk judges.
 */
final class NodeRootVolume {
    /**
     * The root volume a managed node group gets without a launch template's: 20 GiB
     * (https://docs.aws.amazon.com/eks/latest/APIReference/API_CreateNodegroup.html, diskSize).
     */
    static final int EKS_DEFAULT_GIB = 20;
    /** The AL2023 EKS AMIs' root device (https://docs.aws.amazon.com/linux/al2023/ug/ebs.html: /dev/xvda). */
    static final String AL2023_ROOT_DEVICE = "/dev/xvda";
    /**
     * The EKS AMI's evictionHard {@code nodefs.available: 10%} (awslabs/amazon-eks-ami,
     * nodeadm/internal/kubelet/config.go, defaultKubeletSubConfig): less free than this on the root
     * file system is DiskPressure, and the kubelet evicts.
     */
    static final double NODEFS_EVICTION = 0.10;
    /**
     * The kubelet's image garbage collection thresholds: imageGCHighThresholdPercent 85 and
     * imageGCLowThresholdPercent 80, its defaults (https://kubernetes.io/docs/reference/config-api/kubelet-config.v1beta1/),
     * which nodeadm leaves alone.
     */
    static final double IMAGE_GC_HIGH = 0.85;

    static final double IMAGE_GC_LOW = 0.80;
    /** The operating system and the logs on an AL2023 EKS node: the twin's estimate, 6 GiB. */
    static final double SYSTEM_GIB = 6;
    /**
     * containerd stores an image's compressed layers and their unpacked snapshots: the twin takes
     * the snapshots as 2.2 times the compressed size for a Python and CUDA image (an estimate).
     */
    static final double STORED_PER_COMPRESSED_GB = 1 + 2.2;
    /**
     * The published compressed size of the PyTorch training image: about 3.4 GB on Docker Hub's tag
     * page (https://hub.docker.com/r/pytorch/pytorch/tags?name=2.5.1-cuda12.4-cudnn9-runtime).
     */
    static final double PYTORCH_2_5_1_CUDA_GB = 3.4;

    private NodeRootVolume() {}

    /** What an image of {@code compressedGB} takes on the node once pulled and unpacked, in GiB. */
    static double imageGiB(double compressedGB) {
        return compressedGB * STORED_PER_COMPRESSED_GB;
    }
}
