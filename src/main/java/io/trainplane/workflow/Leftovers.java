package io.trainplane.workflow;

import io.trainplane.runs.CleanupFailure;
import io.trainplane.runs.Leftover;
import io.trainplane.runs.RunRecord;
import io.trainplane.spec.CleanupSpec;
import java.util.List;
import java.util.TreeSet;

/**
 * What a run still holds when its cleanup gives up, named as the account's inventory names each
 * resource ({@code efs:file-system/fs-…}, {@code efs:mount-target/fsmt-…},
 * {@code eks:nodegroup/<cluster>/<nodegroup>}, {@code kubernetes:Pod/<namespace>/<name>}), and what
 * removes it. The run record says what may be left (cleanup forgets each resource once it is
 * gone): {@link #recorded} names it from the record alone, for the functions that may not ask the
 * services; the Teardown function asks them ({@link ResourceLifecycles#left}).
 */
final class Leftovers {
    /**
     * What the janitor finds by its {@code trainplane:run-id} tag ({@link TaggedResources}). When
     * one of a run's is left, the Cleanup it starts deletes everything the run record lists.
     */
    private static final List<String> FOUND_BY_JANITOR =
            List.of("eks:cluster/", "efs:file-system/", "efs:creation-token/", "logs:log-group/");

    private Leftovers() {}

    /** What the record lists and the spec does not keep, with no call to any service; sorted. */
    static List<String> recorded(RunRecord run) {
        CleanupSpec keep = CleanupRecord.keep(run);
        TreeSet<String> left = new TreeSet<>();
        for (ResourceKind kind : ResourceKind.values()) {
            if (!kind.kept(keep, run.resources())) {
                left.addAll(kind.named(run.resources()));
            }
        }
        return List.copyOf(left);
    }

    /** A cleanup that gave up with {@code error} and {@code cause}, leaving {@code refs}. */
    static CleanupFailure failure(RunRecord run, String error, String cause, List<String> refs, String stackName) {
        boolean janitor =
                refs.stream().anyMatch(ref -> FOUND_BY_JANITOR.stream().anyMatch(ref::startsWith));
        String removedBy = janitor ? Leftover.JANITOR : Leftover.COMMAND;
        return new CleanupFailure(
                error,
                cause,
                refs.stream().map(ref -> Leftover.of(ref, removedBy)).toList(),
                command(run.runId(), stackName));
    }

    /** The command that cleans up after a run now: it starts the stack's Cleanup state machine. */
    static String command(String runId, String stackName) {
        return "trainplane cleanup " + runId + " --stack "
                + (stackName == null || stackName.isBlank() ? "<stack>" : stackName);
    }
}
