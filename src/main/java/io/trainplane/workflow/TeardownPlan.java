package io.trainplane.workflow;

import io.trainplane.core.TransientException;
import io.trainplane.core.TerminalException;
import io.trainplane.aws.Deletion;
import io.trainplane.aws.ResourceState;
import io.trainplane.aws.ec2.Ec2DesiredState;
import io.trainplane.aws.ec2.ResourceRequest;
import io.trainplane.aws.eks.ControlPlaneLogGroup;
import io.trainplane.kubernetes.RunObjects;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.spec.CleanupSpec;
import io.trainplane.spec.Names;
import io.trainplane.spec.RunSpecs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.logging.Logger;

/**
 * One pass of cleanup over a run's resources, in dependency order:
 * Kubernetes objects → mount targets → file system, Kubernetes objects → the cluster's security
 * group off the mount targets of a file system that stays, and Kubernetes objects → node group →
 * launch template and placement group → cluster → control-plane log group (last: EKS writes into
 * it until the cluster is gone). Each pass deletes what can go now and forgets
 * (in the run record) what is gone. A chain whose delete is refused stops there and the others go
 * on, so one stuck resource never keeps the rest alive. Kept resources
 * ({@code cleanup.keepCluster}, {@code keepVolume}, adopted file systems) are never touched.
 */
final class TeardownPlan {
    private static final Logger LOG = Logger.getLogger(TeardownPlan.class.getName());

    private final RunRecord run;
    private final Services services;
    private final Infrastructure infrastructure;
    private final CleanupSpec keep;
    private final List<String> remaining = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private int waiting;

    TeardownPlan(RunRecord run, Services services, Infrastructure infrastructure) {
        this.run = run;
        this.services = services;
        this.infrastructure = infrastructure;
        this.keep = RunSpecs.fromNormalized(run.specJson()).cleanup();
    }

    /** Deletes what can go now; returns what is left. */
    List<String> advance() {
        // The volume and the cluster wait for the Kubernetes objects that use them.
        if (chain("Kubernetes objects", this::kubernetes)) {
            // Before the cluster: EKS does not delete a cluster's security group that a network
            // interface (a mount target's) still uses, and leaves it behind (reported in
            // https://github.com/hashicorp/terraform-provider-aws/issues/20925).
            chain("EFS mount target access", this::mountTargetAccess);
            chain("EFS volume", this::volume);
            chain("EKS cluster", this::cluster);
        }
        return remaining;
    }

    /** The errors of this pass that retrying will not fix, one line each. */
    List<String> failures() {
        return failures;
    }

    /** Whether some chain is still making progress (deletes under way), so another pass is worth it. */
    boolean progressing() {
        return waiting > 0;
    }

    /** Runs one chain; a refused call ends the chain for this pass (transient ones are tried next pass). */
    private boolean chain(String what, BooleanSupplier chain) {
        try {
            boolean done = chain.getAsBoolean();
            if (!done) {
                waiting++;
            }
            return done;
        } catch (RuntimeException e) {
            RuntimeException classified = Failures.classify(e);
            if (classified instanceof TransientException) {
                waiting++;
            } else {
                // The classified message: an IAM refusal reads "AccessDeniedException: …" with its fix.
                failures.add(what + ": " + classified.getMessage());
            }
            return false;
        }
    }

    /** The run's objects in the cluster; true when none is left. */
    private boolean kubernetes() {
        String cluster = resource(RunResources.KUBERNETES_CLUSTER);
        if (cluster == null || resource(RunResources.NAMESPACE) == null) {
            return true;
        }
        RunObjects objects;
        try {
            objects = new RunObjects(services.clusters().connect(cluster), run.runId());
        } catch (TerminalException e) {
            if ("ClusterNotFound".equals(e.reason())) {
                forget(RunResources.NAMESPACE);   // the objects went with the cluster
                return true;
            }
            remaining.add("kubernetes:Namespace/" + resource(RunResources.NAMESPACE));
            throw e;
        }
        objects.deleteAll();
        List<String> left = objects.remaining();
        if (left.isEmpty()) {
            forget(RunResources.NAMESPACE);
            return true;
        }
        left.forEach(ref -> remaining.add("kubernetes:" + ref));
        return false;
    }

    /** A file system that cleanup leaves: adopted ({@code volume.fileSystemId}) or kept ({@code cleanup.keepVolume}). */
    private boolean fileSystemStays() {
        return keep.keepVolume() || "true".equals(resource(RunResources.FILE_SYSTEM_ADOPTED));
    }

    /**
     * The cluster's security group, taken back off the mount targets of a file system that stays,
     * where the run added it (their other groups kept): the file system is left as the run found
     * it. True when done; a file system that goes takes its mount targets with it.
     */
    private boolean mountTargetAccess() {
        Optional<OpenedMountTargets> opened = OpenedMountTargets.of(run);
        if (opened.isEmpty()) {
            return true;
        }
        if (fileSystemStays()) {
            remaining.add("efs:mount-target-security-group/" + opened.get().securityGroupId());
            for (String mountTarget : opened.get().mountTargetIds()) {
                infrastructure.mountTargetGroups().remove(mountTarget, opened.get().securityGroupId());
            }
            remaining.removeLast();
        }
        forget(RunResources.MOUNT_TARGET_GROUP, RunResources.MOUNT_TARGETS_OPENED);
        return true;
    }

    private boolean volume() {
        if (fileSystemStays()) {
            return true;
        }
        String token = resource(RunResources.FILE_SYSTEM_TOKEN);
        String fileSystem = resource(RunResources.FILE_SYSTEM);
        if (fileSystem == null && token == null) {
            return true;
        }
        remaining.add("efs:file-system/" + (fileSystem == null ? token : fileSystem));
        if (fileSystem == null) {
            Optional<String> found = infrastructure.volumes().findByCreationToken(token);
            if (found.isEmpty()) {
                forget(RunResources.FILE_SYSTEM_TOKEN);
                remaining.removeLast();
                return true;
            }
            fileSystem = found.get();
        }
        if (infrastructure.volumes().deleteMountTargets(fileSystem) instanceof Deletion.Gone
                && infrastructure.volumes().deleteFileSystem(fileSystem) instanceof Deletion.Gone) {
            forget(RunResources.FILE_SYSTEM, RunResources.FILE_SYSTEM_TOKEN);
            remaining.removeLast();
            return true;
        }
        return false;
    }

    private boolean cluster() {
        if (keep.keepCluster()) {
            return true;
        }
        String cluster = resource(RunResources.EKS_CLUSTER);
        if (cluster == null) {
            return logGroup();
        }
        remaining.add("eks:cluster/" + cluster);
        String nodegroup = resource(RunResources.NODE_GROUP);
        if (nodegroup != null) {
            remaining.add("eks:nodegroup/" + cluster + "/" + nodegroup);
            if (!(infrastructure.nodegroups().delete(cluster, nodegroup) instanceof Deletion.Gone)) {
                return false;
            }
            forget(RunResources.NODE_GROUP);
            remaining.removeLast();
        }
        if (cloudControl(RunResources.LAUNCH_TEMPLATE, Ec2DesiredState.LAUNCH_TEMPLATE)
                & cloudControl(RunResources.PLACEMENT_GROUP, Ec2DesiredState.PLACEMENT_GROUP)
                && infrastructure.clusters().delete(cluster) instanceof Deletion.Gone) {
            forget(RunResources.EKS_CLUSTER);
            remaining.remove("eks:cluster/" + cluster);
            return logGroup();
        }
        return false;
    }

    /**
     * The cluster's control-plane log group, once the cluster is gone; true when it is gone. A
     * create still under way is waited for (deleting first would leave what it then creates); a
     * log group that is not this run's (another stack's or run's, or one EKS made) is left alone.
     */
    private boolean logGroup() {
        String name = resource(RunResources.LOG_GROUP);
        if (name == null) {
            return true;
        }
        String ref = ControlPlaneLogGroup.REF_PREFIX + name;
        remaining.add(ref);
        if (stillCreating(resource(RunResources.LOG_GROUP_REQUEST))) {
            return false;
        }
        Optional<Map<String, String>> tags = infrastructure.ec2().tags(ControlPlaneLogGroup.TYPE, name);
        boolean ours = tags.isPresent() && infrastructure.tags(new Names(run.runId())).on(tags.get());
        if (tags.isPresent() && !ours) {
            LOG.warning(() -> "run " + run.runId() + ": log group " + name + " is not the run's (tags " + tags.get()
                    + "); left alone");
        }
        if (!ours || infrastructure.ec2().delete(ControlPlaneLogGroup.TYPE, name) instanceof Deletion.Gone) {
            forget(RunResources.LOG_GROUP, RunResources.LOG_GROUP_REQUEST);
            remaining.remove(ref);
            return true;
        }
        return false;
    }

    /** Whether the Cloud Control request behind {@code token} is still creating its resource. */
    private boolean stillCreating(String token) {
        if (token == null) {
            return false;
        }
        try {
            return infrastructure.ec2().request(token).state() instanceof ResourceState.Creating;
        } catch (TerminalException expired) {
            return false;   // Cloud Control forgot the request: it ended long ago
        }
    }

    /**
     * A launch template or placement group, known by its Cloud Control request; true when gone. A
     * create still under way is waited for: forgotten now, what it then creates would be left.
     */
    private boolean cloudControl(String key, String typeName) {
        String requestToken = resource(key);
        if (requestToken == null) {
            return true;
        }
        ResourceRequest request = infrastructure.ec2().request(requestToken);
        if (request.state() instanceof ResourceState.Creating) {
            remaining.add(typeName + " (request " + requestToken + ")");
            return false;
        }
        Optional<String> identifier = request.identifier();
        if (identifier.isEmpty() || infrastructure.ec2().delete(typeName, identifier.get()) instanceof Deletion.Gone) {
            forget(key);
            return true;
        }
        remaining.add(typeName + "/" + identifier.get());
        return false;
    }

    /**
     * The run's objects still in its cluster, as the inventory names them
     * ({@code kubernetes:Kind/namespace/name}); the namespace alone when the cluster cannot be asked,
     * none when the cluster is gone (they went with it).
     */
    static List<String> objectsLeft(RunRecord run, Services services) {
        String cluster = run.resources().get(RunResources.KUBERNETES_CLUSTER);
        String namespace = run.resources().get(RunResources.NAMESPACE);
        List<String> fallback = List.of("kubernetes:Namespace/" + namespace);
        try {
            return new RunObjects(services.clusters().connect(cluster), run.runId()).remaining().stream()
                    .map(ref -> "kubernetes:" + ref).toList();
        } catch (TerminalException e) {
            return "ClusterNotFound".equals(e.reason()) ? List.of() : fallback;
        } catch (RuntimeException e) {
            return fallback;
        }
    }

    private String resource(String key) {
        return run.resources().get(key);
    }

    private void forget(String... keys) {
        services.store().update(run.runId(), r -> {
            var updated = r;
            for (String key : keys) {
                updated = CleanupRecord.deleted(updated, key).withoutResource(key);
            }
            return updated;
        });
    }
}
