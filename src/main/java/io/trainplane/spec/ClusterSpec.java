package io.trainplane.spec;

import java.util.Objects;

/**
 * The cluster of a run. With {@link ClusterMode#EXISTING}, {@code name} is set and the other
 * fields are null; with {@link ClusterMode#CREATE}, {@code kubernetesVersion} and
 * {@code nodeGroup} are set and {@code name} is null (the cluster's name is derived by
 * {@link Names#clusterName()}).
 */
public record ClusterSpec(ClusterMode mode, String name, String kubernetesVersion, NodeGroupSpec nodeGroup) {
    public ClusterSpec {
        Objects.requireNonNull(mode, "mode");
    }

    public boolean created() {
        return mode == ClusterMode.CREATE;
    }
}
