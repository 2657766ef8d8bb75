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

    /** An EKS cluster the run created ({@code cluster.mode: create}); deleted by cleanup unless kept. */
    public static final String EKS_CLUSTER = "eks/cluster";
    public static final String NODE_GROUP = "eks/nodegroup";
    /** Cloud Control identifiers of the node group's launch template and placement group, when it needs them. */
    public static final String LAUNCH_TEMPLATE = "ec2/launch-template";
    public static final String PLACEMENT_GROUP = "ec2/placement-group";
    /**
     * The log group of the created cluster's control-plane logs ({@code /aws/eks/<cluster>/cluster}),
     * written before its create is sent; its Cloud Control request token, until the cluster is asked for.
     */
    public static final String LOG_GROUP = "logs/log-group";
    public static final String LOG_GROUP_REQUEST = "logs/log-group-request";
    /** The run's EFS file system: created by the run, or adopted ({@link #FILE_SYSTEM_ADOPTED}: never deleted). */
    public static final String FILE_SYSTEM = "efs/file-system";
    public static final String FILE_SYSTEM_ADOPTED = "efs/file-system-adopted";
    /** The CreationToken of a file system being created, before EFS has answered with its id. */
    public static final String FILE_SYSTEM_TOKEN = "efs/creation-token";
    /**
     * The cluster's security group that the run added to mount targets it did not make (an adopted
     * or kept file system's), and those mount targets, space-separated: written before the change,
     * so that cleanup takes the group back off exactly those.
     */
    public static final String MOUNT_TARGET_GROUP = "efs/mount-target-group";
    public static final String MOUNT_TARGETS_OPENED = "efs/mount-targets-opened";

    /** When cleanup started (ISO-8601): it gives up, FAILED, after a deadline. */
    public static final String CLEANUP_STARTED = "cleanup/started";

    private RunResources() {}
}
