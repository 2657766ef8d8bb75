package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Instant;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A node's root volume as the kubelet keeps it: the system and the images containerd unpacked
 * there, sized by the twin's own figures ({@link NodeRootVolume}). The kubelet's image garbage collector deletes images
 * no pod on the node uses, least recently pulled first, once the disk is 85 % full, down to 80 %
 * (imageGCHighThresholdPercent and imageGCLowThresholdPercent,
 * https://kubernetes.io/docs/concepts/architecture/garbage-collection/#containers-images); an image
 * that does not fit even then fails its pull, out of space; a node left with less free than the
 * eviction threshold has DiskPressure, and the kubelet evicts a pod
 * (https://kubernetes.io/docs/concepts/scheduling-eviction/node-pressure-eviction/). Simpler than
 * the kubelet: the collector runs before each pull (the kubelet's every 5 minutes and under
 * pressure), and the pod evicted is the one whose pull took the node there.
 */
final class KubeletDisk {
    private final double capacityGiB;
    /** The node's images (shared with {@link ImagePulls}): when each is, or will be, on the node. */
    private final Map<String, Instant> images;

    private KubeletDisk(double capacityGiB, Map<String, Instant> images) {
        this.capacityGiB = capacityGiB;
        this.images = images;
    }

    /** The node's disk, when it reports one (a node of a node group: {@link ClusterNodes#EPHEMERAL_STORAGE}). */
    static Optional<KubeletDisk> of(Node node, Map<String, Instant> images) {
        Quantity size =
                node == null || node.getStatus() == null || node.getStatus().getCapacity() == null
                        ? null
                        : node.getStatus().getCapacity().get(ClusterNodes.EPHEMERAL_STORAGE);
        return size == null
                ? Optional.empty()
                : Optional.of(new KubeletDisk(Quantity.getAmountInBytes(size).doubleValue() / (1L << 30), images));
    }

    private static double imageGiB(String image) {
        return NodeRootVolume.imageGiB(ImagePulls.gigabytes(image));
    }

    double usedGiB() {
        return NodeRootVolume.SYSTEM_GIB
                + images.keySet().stream().mapToDouble(KubeletDisk::imageGiB).sum();
    }

    /**
     * Whether {@code image} fits on the disk, once the collector deleted what images not {@code inUse}
     * it had to. Ahead of the pull: it then takes its room.
     */
    boolean makeRoom(String image, Set<String> inUse) {
        double needed = imageGiB(image);
        collect(inUse, capacityGiB - needed);
        return usedGiB() + needed <= capacityGiB;
    }

    /** After a pull: past the high threshold, the collector deletes unused images down to the low one. */
    void collectPastHighThreshold(Set<String> inUse) {
        if (usedGiB() > capacityGiB * NodeRootVolume.IMAGE_GC_HIGH) {
            collect(inUse, capacityGiB * NodeRootVolume.IMAGE_GC_LOW);
        }
    }

    /** Less free than the eviction threshold, unused images collected first. */
    boolean underPressure(Set<String> inUse) {
        double threshold = capacityGiB * NodeRootVolume.NODEFS_EVICTION;
        collect(inUse, capacityGiB - threshold);
        return capacityGiB - usedGiB() < threshold;
    }

    /**
     * The kubelet's eviction message (pkg/kubelet/eviction/helpers.go, nodeLowMessageFmt: "The node
     * was low on resource: %v. Threshold quantity: %v, available: %v. ").
     */
    String evictionMessage() {
        return "The node was low on resource: ephemeral-storage. Threshold quantity: "
                + kibibytes(capacityGiB * NodeRootVolume.NODEFS_EVICTION) + ", available: "
                + kibibytes(Math.max(0, capacityGiB - usedGiB())) + ". ";
    }

    /** containerd's error when an image's layers do not fit (the twin's wording around its "no space left on device"). */
    static String noSpace(String image) {
        return "failed to pull and unpack image \"" + image + "\": failed to extract layer: write "
                + "/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots: no space left on device";
    }

    /** Deletes images not in use, least recently pulled first, until the disk holds at most {@code targetGiB}. */
    private void collect(Set<String> inUse, double targetGiB) {
        var unused = images.entrySet().stream()
                .filter(e -> !inUse.contains(e.getKey()))
                .sorted(Map.Entry.comparingByValue(Comparator.naturalOrder()))
                .map(Map.Entry::getKey)
                .toList();
        for (String image : unused) {
            if (usedGiB() <= targetGiB) {
                return;
            }
            images.remove(image);
        }
    }

    private static String kibibytes(double gib) {
        return String.format(Locale.ROOT, "%dKi", Math.round(gib * 1024 * 1024));
    }
}
