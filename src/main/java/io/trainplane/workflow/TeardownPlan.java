package io.trainplane.workflow;

import io.trainplane.aws.Deletion;
import io.trainplane.aws.ec2.Ec2DesiredState;
import io.trainplane.kubernetes.RunObjects;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.spec.CleanupSpec;
import io.trainplane.spec.RunSpecs;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * One pass of cleanup over a run's resources, in dependency order:
 * Kubernetes objects → mount targets → file system, and Kubernetes objects → node group →
 * launch template and placement group → cluster. Each pass deletes what can go now and forgets
 * (in the run record) what is gone. A chain whose delete is refused stops there and the others go
 * on, so one stuck resource never keeps the rest alive. Kept resources
 * ({@code cleanup.keepCluster}, {@code keepVolume}, adopted file systems) are never touched.
 */
final class TeardownPlan {
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
                failures.add(what + ": " + e.getMessage());
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

    private boolean volume() {
        if (keep.keepVolume() || "true".equals(resource(RunResources.FILE_SYSTEM_ADOPTED))) {
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
        String cluster = resource(RunResources.EKS_CLUSTER);
        if (cluster == null || keep.keepCluster()) {
            return true;
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
            return true;
        }
        return false;
    }

    /** A launch template or placement group, known by its Cloud Control request; true when gone. */
    private boolean cloudControl(String key, String typeName) {
        String requestToken = resource(key);
        if (requestToken == null) {
            return true;
        }
        Optional<String> identifier = infrastructure.ec2().request(requestToken).identifier();
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
