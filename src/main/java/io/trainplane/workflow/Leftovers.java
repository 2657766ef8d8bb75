package io.trainplane.workflow;

import io.trainplane.aws.ResourceState;
import io.trainplane.runs.CleanupFailure;
import io.trainplane.runs.Leftover;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.spec.CleanupSpec;
import io.trainplane.spec.RunSpecs;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * What a run still holds when its cleanup gives up, named as the account's inventory names each
 * resource ({@code efs:file-system/fs-…}, {@code efs:mount-target/fsmt-…},
 * {@code eks:nodegroup/<cluster>/<nodegroup>}, {@code kubernetes:Pod/<namespace>/<name>}), and what
 * removes it. The run record says what may be left (cleanup forgets each resource once it is
 * gone); {@link #lookedUp} asks the services for the parts the record does not list (mount
 * targets, the objects in the namespace) and leaves out what is already gone. A look that fails
 * keeps the resource in the list: naming something gone is better than hiding something left.
 */
final class Leftovers {
    private static final Logger LOG = Logger.getLogger(Leftovers.class.getName());
    /**
     * What the janitor finds by its {@code trainplane:run-id} tag ({@link TaggedResources}). When
     * one of a run's is left, the Cleanup it starts deletes everything the run record lists.
     */
    private static final List<String> FOUND_BY_JANITOR = List.of("eks:cluster/", "efs:file-system/", "efs:creation-token/",
            "logs:log-group/");

    private final Infrastructure infrastructure;
    private final Function<RunRecord, List<String>> objects;

    private Leftovers(Infrastructure infrastructure, Function<RunRecord, List<String>> objects) {
        this.infrastructure = infrastructure;
        this.objects = objects;
    }

    /**
     * What the record lists, with the parts only the services know; sorted. {@code objects} names
     * the run's Kubernetes objects still in its cluster (the Teardown function's: this class stays
     * free of the Kubernetes client, which the functions of the AWS artifact do not ship).
     */
    static List<String> lookedUp(RunRecord run, Infrastructure infrastructure, Function<RunRecord, List<String>> objects) {
        return new Leftovers(infrastructure, objects).of(run);
    }

    /** What the record lists, with no call to any service (for the steps that may not make them). */
    static List<String> recorded(RunRecord run) {
        return new Leftovers(null, null).of(run);
    }

    /** A cleanup that gave up with {@code error} and {@code cause}, leaving {@code refs}. */
    static CleanupFailure failure(RunRecord run, String error, String cause, List<String> refs, String stackName) {
        boolean janitor = refs.stream().anyMatch(ref -> FOUND_BY_JANITOR.stream().anyMatch(ref::startsWith));
        String removedBy = janitor ? Leftover.JANITOR : Leftover.COMMAND;
        return new CleanupFailure(error, cause, refs.stream().map(ref -> Leftover.of(ref, removedBy)).toList(),
                command(run.runId(), stackName));
    }

    /** The command that cleans up after a run now: it starts the stack's Cleanup state machine. */
    static String command(String runId, String stackName) {
        return "trainplane cleanup " + runId + " --stack " + (stackName == null || stackName.isBlank() ? "<stack>" : stackName);
    }

    private boolean looking() {
        return infrastructure != null;
    }

    private List<String> of(RunRecord run) {
        CleanupSpec keep = keep(run);
        TreeSet<String> left = new TreeSet<>();
        kubernetes(run, left);
        if (!keep.keepVolume() && !"true".equals(run.resources().get(RunResources.FILE_SYSTEM_ADOPTED))) {
            volume(run, left);
        }
        if (!keep.keepCluster()) {
            cluster(run, left);
        }
        return List.copyOf(left);
    }

    private void kubernetes(RunRecord run, TreeSet<String> left) {
        String cluster = run.resources().get(RunResources.KUBERNETES_CLUSTER);
        String namespace = run.resources().get(RunResources.NAMESPACE);
        if (cluster == null || namespace == null) {
            return;
        }
        left.addAll(looking() ? objects.apply(run) : List.of("kubernetes:Namespace/" + namespace));
    }

    private void volume(RunRecord run, TreeSet<String> left) {
        String fileSystem = run.resources().get(RunResources.FILE_SYSTEM);
        String token = run.resources().get(RunResources.FILE_SYSTEM_TOKEN);
        if (fileSystem == null && token == null) {
            return;
        }
        if (!looking()) {
            // Before EFS answered with the id, the record has only the creation token.
            left.add(fileSystem != null ? "efs:file-system/" + fileSystem : "efs:creation-token/" + token);
            return;
        }
        if (fileSystem == null) {
            Optional<String> found = look(() -> infrastructure.volumes().findByCreationToken(token), null);
            if (found == null) {
                left.add("efs:creation-token/" + token);
            }
            if (found == null || found.isEmpty()) {
                return;
            }
            fileSystem = found.get();
        }
        String id = fileSystem;
        if (!(look(() -> infrastructure.volumes().fileSystemState(id), null) instanceof ResourceState.Gone)) {
            left.add("efs:file-system/" + id);
            look(() -> infrastructure.volumes().mountTargetIds(id), List.<String>of())
                    .forEach(mt -> left.add("efs:mount-target/" + mt));
        }
    }

    private void cluster(RunRecord run, TreeSet<String> left) {
        String cluster = run.resources().get(RunResources.EKS_CLUSTER);
        String nodegroup = run.resources().get(RunResources.NODE_GROUP);
        if (cluster != null && !(looking()
                && look(() -> infrastructure.clusters().state(cluster), null) instanceof ResourceState.Gone)) {
            left.add("eks:cluster/" + cluster);
            // Its add-ons go with it, but are there until then.
            if (looking()) {
                look(() -> infrastructure.addons().installed(cluster), List.<String>of())
                        .forEach(addon -> left.add("eks:addon/" + cluster + "/" + addon));
            }
        }
        if (cluster != null && nodegroup != null && !(looking()
                && look(() -> infrastructure.nodegroups().state(cluster, nodegroup), null) instanceof ResourceState.Gone)) {
            left.add("eks:nodegroup/" + cluster + "/" + nodegroup);
        }
        cloudControl(run, RunResources.LAUNCH_TEMPLATE, "ec2:launch-template/", left);
        cloudControl(run, RunResources.PLACEMENT_GROUP, "ec2:placement-group/", left);
        // The control-plane log group: by its name once the cluster was asked for, else by its request.
        String logGroup = run.resources().get(RunResources.LOG_GROUP);
        if (logGroup != null) {
            left.add("logs:log-group/" + logGroup);
        } else {
            cloudControl(run, RunResources.LOG_GROUP_REQUEST, "logs:log-group/", left);
        }
    }

    /**
     * A launch template or placement group, recorded by its Cloud Control request: named by the
     * identifier Cloud Control gave it ({@code ec2:launch-template/lt-…}), or as the request
     * ({@code cloudcontrol:request/<token>}) when that cannot be asked; none when the request
     * created nothing.
     */
    private void cloudControl(RunRecord run, String key, String prefix, TreeSet<String> left) {
        String requestToken = run.resources().get(key);
        if (requestToken == null) {
            return;
        }
        Optional<String> identifier = looking() ? look(() -> infrastructure.ec2().request(requestToken).identifier(), null) : null;
        if (identifier == null) {
            left.add("cloudcontrol:request/" + requestToken);
        } else {
            identifier.ifPresent(id -> left.add(prefix + id));
        }
    }

    /** A read that may fail: its answer, or {@code otherwise} (logged) when it failed. */
    private static <T> T look(Supplier<T> read, T otherwise) {
        try {
            return read.get();
        } catch (RuntimeException e) {
            LOG.warning(() -> "could not look at what cleanup left: " + e.getMessage());
            return otherwise;
        }
    }

    private static CleanupSpec keep(RunRecord run) {
        try {
            return RunSpecs.fromNormalized(run.specJson()).cleanup();
        } catch (RuntimeException unreadable) {
            return new CleanupSpec(false, false);
        }
    }
}
