package io.trainplane.spec;

import java.util.Objects;

/**
 * The cluster of a run. With {@link ClusterMode#EXISTING}, {@code name} is set and the other
 * fields are null; with {@link ClusterMode#CREATE}, {@code kubernetesVersion} and
 * {@code nodeGroup} are set and {@code name} is null (the cluster's name is derived by
 * {@link Names#clusterName()}); with {@link ClusterMode#WARM}, {@code name} and {@code nodegroupName}
 * (the warm node group the run scales) are set, {@code nodes} (how many it asks for) and
 * {@code instanceType} (the node group's, which prices them) may be.
 */
public record ClusterSpec(
        ClusterMode mode,
        String name,
        String kubernetesVersion,
        NodeGroupSpec nodeGroup,
        String nodegroupName,
        Integer nodes,
        String instanceType) {
    public ClusterSpec {
        Objects.requireNonNull(mode, "mode");
    }

    /** A cluster of mode existing or create (no warm node group). */
    public ClusterSpec(ClusterMode mode, String name, String kubernetesVersion, NodeGroupSpec nodeGroup) {
        this(mode, name, kubernetesVersion, nodeGroup, null, null, null);
    }

    public boolean created() {
        return mode == ClusterMode.CREATE;
    }

    /** A long-lived cluster whose warm node group the run scales up, and back to zero. */
    public boolean warm() {
        return mode == ClusterMode.WARM;
    }

    /** The nodes a run of {@code workers} workers asks of the warm node group: {@code nodes}, else one per worker. */
    public int warmNodes(int workers) {
        return nodes != null ? nodes : workers;
    }
}
