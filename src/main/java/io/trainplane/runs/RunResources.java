package io.trainplane.runs;

/**
 * Keys of {@link RunRecord#resources()}: what a run created or uses, written the moment it
 * exists so that cleanup finds it even when the step that made it died right after.
 */
public final class RunResources {
    /** The EKS cluster whose Kubernetes API holds the run's objects (created or existing). */
    public static final String KUBERNETES_CLUSTER = "kubernetes/cluster";
    /** The run's namespace; everything inside it carries the run label. */
    public static final String NAMESPACE = "kubernetes/namespace";

    private RunResources() {}
}
