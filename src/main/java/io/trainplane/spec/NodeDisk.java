package io.trainplane.spec;

import java.util.Map;

/**
 * The root volume of a run's nodes, where containerd keeps the images they pull: the training
 * image (the prepull DaemonSet puts it on every node, the data job and the training run it) and
 * Trainplane's own. EKS gives a managed node group 20 GiB by default (CreateNodegroup, diskSize:
 * https://docs.aws.amazon.com/eks/latest/APIReference/API_CreateNodegroup.html), which a
 * multi-GB CUDA image nearly fills; the run's launch templates set the size instead
 * ({@code cluster.nodeGroup.diskGiB}), by default from the images' sizes. Sizes are estimates
 * where no figure is published, and say so.
 */
public final class NodeDisk {
    /** EKS's root volume of a managed node group without one of its own. */
    public static final int EKS_DEFAULT_GIB = 20;
    /** The largest gp3 volume: 16 TiB (https://docs.aws.amazon.com/ebs/latest/userguide/general-purpose.html). */
    public static final int MAX_GIB = 16_384;
    /** The operating system, the kubelet's and containers' logs (AL2023's EKS AMI uses about 4 GiB; an estimate with room). */
    public static final double SYSTEM_GIB = 6;
    /**
     * containerd keeps an image twice: its compressed layers (the content store) and their unpacked
     * snapshots, about 2.2 times as large for a Python and CUDA image (an estimate).
     */
    static final double STORED_PER_COMPRESSED_GB = 1 + 2.2;
    /**
     * The kubelet deletes unused images from 85 % disk use (imageGCHighThresholdPercent's default,
     * https://kubernetes.io/docs/reference/config-api/kubelet-config.v1beta1/); the images a run
     * needs must fit below it.
     */
    public static final double IMAGE_GC_HIGH = 0.85;
    /** Where the kubelet's image GC stops deleting: imageGCLowThresholdPercent's default, 80 % (same page). */
    public static final double IMAGE_GC_LOW = 0.80;
    /**
     * The kubelet evicts pods and reports DiskPressure below 10 % free on the node's file system:
     * the EKS AMI's evictionHard {@code nodefs.available: 10%}
     * (https://github.com/awslabs/amazon-eks-ami/blob/main/nodeadm/internal/kubelet/config.go,
     * defaultKubeletSubConfig; https://kubernetes.io/docs/concepts/scheduling-eviction/node-pressure-eviction/).
     * containerd keeps its images on the same root volume, so images count against it.
     */
    public static final double EVICTION_AVAILABLE = 0.10;
    /**
     * The compressed sizes (GB) of the training images whose size is published: Docker Hub's tag
     * page (https://hub.docker.com/r/pytorch/pytorch/tags?name=2.5.1-cuda12.4-cudnn9-runtime, about
     * 3.4 GB). The twin's pulls take them from here too.
     */
    public static final Map<String, Double> KNOWN_COMPRESSED_GB =
            Map.of("pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime", 3.4);
    /** An image of the user's own, size unknown: taken as a CUDA training image of 10 GB compressed (an estimate). */
    static final double UNKNOWN_COMPRESSED_GB = 10;
    /** Trainplane's own images on a node (the AWS CLI, pause, the device plugins): under 0.5 GB together (an estimate). */
    public static final double OWN_IMAGES_GB = 0.5;

    private NodeDisk() {}

    /** What a node of a run with {@code trainingImage} stores, in GiB: the system and the images. */
    static double storedGiB(String trainingImage) {
        return SYSTEM_GIB + imageGiB(compressedGB(trainingImage) + OWN_IMAGES_GB);
    }

    /** The compressed size (GB) of {@code image}: published, else {@link #UNKNOWN_COMPRESSED_GB}'s estimate. */
    public static double compressedGB(String image) {
        return KNOWN_COMPRESSED_GB.getOrDefault(image, UNKNOWN_COMPRESSED_GB);
    }

    /** What an image of {@code compressedGB} takes on a node once pulled and unpacked, in GiB (the same loose unit as the sizes). */
    public static double imageGiB(double compressedGB) {
        return compressedGB * STORED_PER_COMPRESSED_GB;
    }

    /**
     * The default root volume: what the node stores below the kubelet's image GC threshold, rounded
     * up to the next 10 GiB, at least EKS's 20.
     */
    public static int defaultGiB(String trainingImage) {
        int belowThreshold = (int) Math.ceil(storedGiB(trainingImage) / IMAGE_GC_HIGH);
        return Math.max(EKS_DEFAULT_GIB, (belowThreshold + 9) / 10 * 10);
    }
}
