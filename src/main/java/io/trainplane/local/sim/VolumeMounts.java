package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.Optional;

/**
 * The kubelet's volume manager, for CSI volumes: before a bound pod's containers start, each
 * PersistentVolumeClaim's volume is mounted by its CSI driver's node plugin on that node. A driver
 * whose node plugin does not run there is not registered with the kubelet, so the pod waits in
 * ContainerCreating with a FailedMount event
 * (https://kubernetes.io/docs/concepts/storage/volumes/#csi,
 * https://kubernetes-csi.github.io/docs/kubelet-plugin.html; the message is the kubelet's, as in
 * https://github.com/kubernetes-sigs/aws-efs-csi-driver/issues/284). An EFS volume mounts over NFS
 * from a mount target in the node's Availability Zone
 * (https://docs.aws.amazon.com/efs/latest/ug/accessing-fs.html); where the file system has none the
 * mount times out (https://github.com/kubernetes-sigs/aws-efs-csi-driver/issues/262).
 */
final class VolumeMounts {
    static final String KUBELET = "kubelet";

    /** The DaemonSet whose pod registers each CSI driver's node plugin with the kubelet. */
    private static final java.util.Map<String, String> NODE_PLUGINS = java.util.Map.of(
            AddonWorkloads.EFS_DRIVER_NAME, AddonWorkloads.EFS_NODE,
            AddonWorkloads.FSX_DRIVER_NAME, AddonWorkloads.FSX_NODE);

    /** Where an EFS file system can be reached from: the zones of its available mount targets. */
    @FunctionalInterface
    public interface MountTargets {
        /** Nothing known about any file system: every EFS volume is reachable. */
        MountTargets UNKNOWN = fileSystem -> Optional.empty();

        /** The zones of {@code fileSystemId}'s available mount targets; empty when the file system is unknown here. */
        Optional<java.util.Set<String>> zones(String fileSystemId);
    }

    private final KubernetesClient client;
    private final ClusterReads reads;
    private final MountTargets efs;

    VolumeMounts(ClusterReads reads, MountTargets efs) {
        this.reads = reads;
        this.client = reads.client();
        this.efs = efs;
    }

    /** Why the bound {@code pod}'s volumes cannot be mounted on its node, in the kubelet's words; empty when they can. */
    Optional<String> failure(Pod pod) {
        String node = pod.getSpec().getNodeName();
        if (node == null || pod.getSpec().getVolumes() == null) {
            return Optional.empty();
        }
        String ns = pod.getMetadata().getNamespace();
        for (Volume v : pod.getSpec().getVolumes()) {
            if (v.getPersistentVolumeClaim() == null) {
                continue;
            }
            PersistentVolumeClaim claim = client.persistentVolumeClaims()
                    .inNamespace(ns)
                    .withName(v.getPersistentVolumeClaim().getClaimName())
                    .get();
            if (claim == null || claim.getSpec() == null || claim.getSpec().getVolumeName() == null) {
                continue;
            }
            PersistentVolume pv = client.persistentVolumes()
                    .withName(claim.getSpec().getVolumeName())
                    .get();
            if (pv == null || pv.getSpec().getCsi() == null) {
                continue;
            }
            String driver = pv.getSpec().getCsi().getDriver();
            String plugin = NODE_PLUGINS.get(driver);
            if (plugin != null && !nodePluginRuns(plugin, node)) {
                return Optional.of("MountVolume.MountDevice failed for volume \""
                        + pv.getMetadata().getName()
                        + "\" : kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver"
                        + " name " + driver + " not found in the list of registered CSI drivers");
            }
            if (AddonWorkloads.EFS_DRIVER_NAME.equals(driver) && !reachable(pv, node)) {
                return Optional.of("MountVolume.SetUp failed for volume \""
                        + pv.getMetadata().getName()
                        + "\" : rpc error: code = DeadlineExceeded desc = context deadline exceeded");
            }
        }
        return Optional.empty();
    }

    /** Whether the EFS file system of {@code pv} (its volumeHandle: fs-id, fs-id::fsap-id or fs-id:/path) has a mount target in the node's zone. */
    private boolean reachable(PersistentVolume pv, String node) {
        String handle = pv.getSpec().getCsi().getVolumeHandle();
        if (handle == null) {
            return true;
        }
        String fileSystem = handle.split(":", 2)[0];
        var zones = efs.zones(fileSystem);
        if (zones.isEmpty()) {
            return true;
        }
        var n = reads.nodes().stream()
                .filter(x -> node.equals(x.getMetadata().getName()))
                .findFirst()
                .orElse(null);
        String zone = n == null || n.getMetadata().getLabels() == null
                ? null
                : n.getMetadata().getLabels().get("topology.kubernetes.io/zone");
        return zone != null && zones.get().contains(zone);
    }

    private boolean nodePluginRuns(String daemonSet, String node) {
        return reads.pods(BareCluster.SYSTEM).stream()
                .filter(p -> node.equals(p.getSpec().getNodeName()))
                .filter(p -> "Running".equals(p.getStatus().getPhase()))
                .map(WorkloadControllers::controller)
                .anyMatch(owner ->
                        owner != null && "DaemonSet".equals(owner.getKind()) && daemonSet.equals(owner.getName()));
    }

    /** Keeps the pod Pending, its container waiting in ContainerCreating, with the kubelet's FailedMount event. */
    Pod waiting(Pod pod, String message, Instant now) {
        String ns = pod.getMetadata().getNamespace();
        boolean alreadyWaiting = pod.getStatus().getContainerStatuses() != null
                && !pod.getStatus().getContainerStatuses().isEmpty();
        if (!alreadyWaiting) {
            pod.getStatus()
                    .setContainerStatuses(pod.getSpec().getContainers().stream()
                            .map(c -> WaitingContainer.of(c, "ContainerCreating", null))
                            .toList());
            pod = client.pods().inNamespace(ns).resource(pod).updateStatus();
        }
        String eventName = pod.getMetadata().getName() + ".failedmount";
        var existing = client.v1().events().inNamespace(ns).withName(eventName).get();
        if (existing == null) {
            client.v1()
                    .events()
                    .inNamespace(ns)
                    .resource(PodEvents.of(
                            pod,
                            eventName,
                            "Warning",
                            "FailedMount",
                            message,
                            KUBELET,
                            pod.getSpec().getNodeName(),
                            now))
                    .create();
        } else if (!message.equals(existing.getMessage())) {
            existing.setMessage(message);
            existing.setLastTimestamp(now.toString());
            existing.setCount(existing.getCount() == null ? 1 : existing.getCount() + 1);
            client.v1().events().inNamespace(ns).resource(existing).update();
        }
        return pod;
    }
}
