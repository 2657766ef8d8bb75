package io.trainplane.workflow;

import io.trainplane.aws.ec2.ControlPlaneLogGroup;
import io.trainplane.runs.RunResources;
import io.trainplane.spec.CleanupSpec;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Every kind of resource a run creates (or changes), declared once: what must be gone before it
 * can be deleted ({@link #dependsOn}), which keep flag leaves it in place, and the run record's
 * entries for it, forgotten once it is gone. Teardown derives its order from the dependencies
 * ({@link TeardownOrder}); each kind's lifecycle is bound to the record in
 * {@link ResourceLifecycles}. A new kind is an entry here, a case there, and its lifecycle class.
 *
 * <p>This class names resources from the record alone: the functions without the Kubernetes
 * client (FinishRun, CloseRun, SafetyNet, Janitor) use it.
 */
enum ResourceKind {
    /** The run's namespace and what it holds, in the cluster that holds them (created or existing). */
    KUBERNETES_OBJECTS("Kubernetes objects", Keep.NEVER, entries(RunResources.NAMESPACE)),
    /**
     * The EKS Pod Identity association of the run's pods with the stack's run outputs role: the
     * run's on any cluster (an existing one too), deleted once its pods are gone and before the cluster.
     */
    POD_IDENTITY(
            "EKS Pod Identity association",
            Keep.NEVER,
            entries(RunResources.POD_IDENTITY_SERVICE_ACCOUNT, RunResources.POD_IDENTITY),
            KUBERNETES_OBJECTS),
    /**
     * The cluster's security group on the mount targets of a file system that stays (adopted or
     * kept), where the run added it: taken back off before the cluster goes, since EKS does not
     * delete a cluster's security group that a network interface still uses, and leaves it behind
     * (https://github.com/hashicorp/terraform-provider-aws/issues/20925).
     */
    MOUNT_TARGET_ACCESS(
            "EFS mount target access",
            Keep.NEVER,
            entries(RunResources.MOUNT_TARGET_GROUP, RunResources.MOUNT_TARGETS_OPENED),
            KUBERNETES_OBJECTS),
    /** The mount targets of the run's file system, through which the pods mount it (recorded as the file system). */
    MOUNT_TARGETS("EFS mount targets", Keep.WITH_VOLUME, entries(), KUBERNETES_OBJECTS),
    FILE_SYSTEM(
            "EFS file system",
            Keep.WITH_VOLUME,
            entries(RunResources.FILE_SYSTEM, RunResources.FILE_SYSTEM_TOKEN),
            MOUNT_TARGETS),
    /**
     * The run's FSx for Lustre file system, once its pods are gone; before the cluster, whose
     * security group its network interfaces use (EKS would leave that group behind).
     */
    LUSTRE_FILE_SYSTEM(
            "FSx for Lustre file system",
            Keep.WITH_VOLUME,
            entries(
                    RunResources.LUSTRE_FILE_SYSTEM,
                    RunResources.LUSTRE_REQUEST_TOKEN,
                    RunResources.LUSTRE_DNS_NAME,
                    RunResources.LUSTRE_MOUNT_NAME,
                    RunResources.LUSTRE_ASSOCIATIONS),
            KUBERNETES_OBJECTS),
    NODE_GROUP("EKS node group", Keep.WITH_CLUSTER, entries(RunResources.NODE_GROUP), KUBERNETES_OBJECTS),
    /**
     * The nodes of the warm node group the run scaled up ({@code cluster.mode: warm}): scaled back to
     * zero, first (accelerated nodes are billed until they go; their pods are evicted with them),
     * and the run's claim let go. The node group itself is its owner's, never deleted.
     */
    WARM_NODES("EKS warm node group's nodes", Keep.NEVER, entries(RunResources.WARM_NODEGROUP)),
    /** After the run's objects: its nodes run the EFS CSI controller that lets go of the run's volume. */
    SYSTEM_NODE_GROUP(
            "EKS system node group", Keep.WITH_CLUSTER, entries(RunResources.SYSTEM_NODE_GROUP), KUBERNETES_OBJECTS),
    LAUNCH_TEMPLATE(
            "launch template",
            Keep.WITH_CLUSTER,
            entries(RunResources.LAUNCH_TEMPLATE, RunResources.LAUNCH_TEMPLATE_ID),
            NODE_GROUP),
    /** Requested just before the cluster (it needs nothing of it), used by the system node group. */
    SYSTEM_LAUNCH_TEMPLATE(
            "system launch template",
            Keep.WITH_CLUSTER,
            entries(RunResources.SYSTEM_LAUNCH_TEMPLATE, RunResources.SYSTEM_LAUNCH_TEMPLATE_ID),
            SYSTEM_NODE_GROUP),
    PLACEMENT_GROUP(
            "placement group",
            Keep.WITH_CLUSTER,
            entries(RunResources.PLACEMENT_GROUP, RunResources.PLACEMENT_GROUP_NAME),
            NODE_GROUP),
    CLUSTER(
            "EKS cluster",
            Keep.WITH_CLUSTER,
            entries(RunResources.EKS_CLUSTER),
            NODE_GROUP,
            SYSTEM_NODE_GROUP,
            LAUNCH_TEMPLATE,
            SYSTEM_LAUNCH_TEMPLATE,
            PLACEMENT_GROUP,
            MOUNT_TARGET_ACCESS,
            LUSTRE_FILE_SYSTEM,
            POD_IDENTITY),
    /** Last: EKS writes the control-plane logs into it until the cluster is gone. */
    LOG_GROUP(
            "control-plane log group",
            Keep.WITH_CLUSTER,
            entries(RunResources.LOG_GROUP, RunResources.LOG_GROUP_REQUEST),
            CLUSTER);

    /** Which of the spec's keep flags leaves a kind in place (an adopted file system stays too). */
    enum Keep {
        NEVER,
        WITH_CLUSTER,
        WITH_VOLUME
    }

    private final String what;
    private final Keep keep;
    private final List<RunResources.Key<?>> keys;
    private final Set<ResourceKind> dependsOn;

    ResourceKind(String what, Keep keep, List<RunResources.Key<?>> keys, ResourceKind... dependsOn) {
        this.what = what;
        this.keep = keep;
        this.keys = keys;
        // Not an EnumSet: it needs the enum's values, which do not exist yet while its constants are made.
        this.dependsOn = Set.of(dependsOn);
    }

    /** What must be gone before this kind can be deleted. */
    Set<ResourceKind> dependsOn() {
        return dependsOn;
    }

    /** How cleanup's messages name the kind ("EKS node group: …"). */
    String what() {
        return what;
    }

    /** The record's entries for this kind: what teardown forgets once it is gone. */
    List<RunResources.Key<?>> keys() {
        return keys;
    }

    /** Whether the spec ({@code keep}) or the record (an adopted file system) leaves this kind in place: never touched. */
    boolean kept(CleanupSpec keep, RunResources resources) {
        return switch (this.keep) {
            case NEVER -> false;
            case WITH_CLUSTER -> keep.keepCluster();
            case WITH_VOLUME ->
                keep.keepVolume()
                        || resources.isTrue(RunResources.FILE_SYSTEM_ADOPTED)
                        || resources.isTrue(RunResources.LUSTRE_FILE_SYSTEM_ADOPTED);
        };
    }

    /**
     * What of this kind the record lists, as the account's inventory names it
     * ({@code eks:nodegroup/<cluster>/<nodegroup>}, {@code cloudcontrol:request/<token>} before
     * the identifier is known), asking no service.
     */
    List<String> named(RunResources r) {
        return switch (this) {
            case KUBERNETES_OBJECTS ->
                r.has(RunResources.KUBERNETES_CLUSTER)
                        ? list(r.get(RunResources.NAMESPACE).map(ns -> "kubernetes:Namespace/" + ns))
                        : List.of();
            case POD_IDENTITY -> podIdentity(r);
            // Not resources of their own: a change to someone's mount targets, and the file system's parts.
            case MOUNT_TARGET_ACCESS, MOUNT_TARGETS -> List.of();
            case FILE_SYSTEM -> fileSystem(r);
            case LUSTRE_FILE_SYSTEM -> lustreFileSystem(r);
            case NODE_GROUP -> nodegroup(r, RunResources.NODE_GROUP);
            case WARM_NODES -> warmNodes(r);
            case SYSTEM_NODE_GROUP -> nodegroup(r, RunResources.SYSTEM_NODE_GROUP);
            case LAUNCH_TEMPLATE ->
                requested(r, RunResources.LAUNCH_TEMPLATE, RunResources.LAUNCH_TEMPLATE_ID, "ec2:launch-template/");
            case SYSTEM_LAUNCH_TEMPLATE ->
                requested(
                        r,
                        RunResources.SYSTEM_LAUNCH_TEMPLATE,
                        RunResources.SYSTEM_LAUNCH_TEMPLATE_ID,
                        "ec2:launch-template/");
            case PLACEMENT_GROUP ->
                requested(r, RunResources.PLACEMENT_GROUP, RunResources.PLACEMENT_GROUP_NAME, "ec2:placement-group/");
            case CLUSTER -> list(r.get(RunResources.EKS_CLUSTER).map(c -> "eks:cluster/" + c));
            case LOG_GROUP ->
                list(r.get(RunResources.LOG_GROUP)
                        .map(name -> ControlPlaneLogGroup.REF_PREFIX + name)
                        .or(() -> r.get(RunResources.LOG_GROUP_REQUEST).map(token -> "cloudcontrol:request/" + token)));
        };
    }

    /**
     * How the {@code Run Cleaned Up} event names what the record lists of this kind (deleted or
     * kept), and the janitor what it finds by tag: a node group by its name alone, a launch
     * template or placement group by its type and request token.
     */
    List<String> eventNamed(RunResources r) {
        return switch (this) {
            case KUBERNETES_OBJECTS -> list(r.get(RunResources.NAMESPACE).map(ns -> "kubernetes:Namespace/" + ns));
            case POD_IDENTITY -> podIdentity(r);
            case MOUNT_TARGET_ACCESS, MOUNT_TARGETS -> List.of();
            case FILE_SYSTEM -> fileSystem(r);
            case LUSTRE_FILE_SYSTEM -> lustreFileSystem(r);
            case NODE_GROUP -> list(r.get(RunResources.NODE_GROUP).map(ng -> "eks:nodegroup/" + ng));
            case WARM_NODES -> warmNodes(r);
            case SYSTEM_NODE_GROUP -> list(r.get(RunResources.SYSTEM_NODE_GROUP).map(ng -> "eks:nodegroup/" + ng));
            case LAUNCH_TEMPLATE ->
                list(r.get(RunResources.LAUNCH_TEMPLATE)
                        .map(token -> "cloudcontrol:AWS::EC2::LaunchTemplate/" + token));
            case SYSTEM_LAUNCH_TEMPLATE ->
                list(r.get(RunResources.SYSTEM_LAUNCH_TEMPLATE)
                        .map(token -> "cloudcontrol:AWS::EC2::LaunchTemplate/" + token));
            case PLACEMENT_GROUP ->
                list(r.get(RunResources.PLACEMENT_GROUP)
                        .map(token -> "cloudcontrol:AWS::EC2::PlacementGroup/" + token));
            case CLUSTER -> list(r.get(RunResources.EKS_CLUSTER).map(c -> "eks:cluster/" + c));
            case LOG_GROUP -> list(r.get(RunResources.LOG_GROUP).map(name -> ControlPlaneLogGroup.REF_PREFIX + name));
        };
    }

    /** A resource asked of Cloud Control: by its identifier once recorded, else by the request's token. */
    private static List<String> requested(
            RunResources r, RunResources.Key<String> token, RunResources.Key<String> identifier, String prefix) {
        return list(
                r.get(identifier).map(id -> prefix + id).or(() -> r.get(token).map(t -> "cloudcontrol:request/" + t)));
    }

    private static List<RunResources.Key<?>> entries(RunResources.Key<?>... keys) {
        return List.of(keys);
    }

    private static List<String> nodegroup(RunResources r, RunResources.Key<String> key) {
        return list(
                r.get(RunResources.EKS_CLUSTER).flatMap(c -> r.get(key).map(ng -> "eks:nodegroup/" + c + "/" + ng)));
    }

    /** The warm node group's nodes: what the run added to a node group that is not its own. */
    private static List<String> warmNodes(RunResources r) {
        return list(r.get(RunResources.WARM_NODEGROUP).map(ref -> "eks:nodegroup-nodes/" + ref));
    }

    /** By its id once EKS answered; unnamed before (cleanup finds it by namespace and service account). */
    private static List<String> podIdentity(RunResources r) {
        return list(r.get(RunResources.KUBERNETES_CLUSTER).flatMap(c -> r.get(RunResources.POD_IDENTITY)
                .map(id -> "eks:podidentityassociation/" + c + "/" + id)));
    }

    /** Its id once FSx answered, its request token before. */
    private static List<String> lustreFileSystem(RunResources r) {
        return list(r.get(RunResources.LUSTRE_FILE_SYSTEM)
                .map(id -> "fsx:file-system/" + id)
                .or(() -> r.get(RunResources.LUSTRE_REQUEST_TOKEN).map(token -> "fsx:request-token/" + token)));
    }

    /** Its id once EFS answered, its creation token before. */
    private static List<String> fileSystem(RunResources r) {
        return list(r.get(RunResources.FILE_SYSTEM)
                .map(id -> "efs:file-system/" + id)
                .or(() -> r.get(RunResources.FILE_SYSTEM_TOKEN).map(token -> "efs:creation-token/" + token)));
    }

    private static List<String> list(Optional<String> ref) {
        return ref.map(List::of).orElse(List.of());
    }
}
