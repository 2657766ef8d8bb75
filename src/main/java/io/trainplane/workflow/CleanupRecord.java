package io.trainplane.workflow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.spec.CleanupSpec;
import io.trainplane.spec.RunSpecs;
import java.util.ArrayList;
import java.util.List;

/**
 * What the run record says about cleanup: which resources are still there, which the spec keeps,
 * which cleanup deleted ({@link RunResources#CLEANUP_DELETED}, written as each goes), and whether
 * it finished ({@link RunResources#CLEANUP_FINISHED}, written once, by the pass that found nothing
 * left: that pass alone publishes {@code Run Cleaned Up}). Resources are named as the events name
 * them ({@link ResourceKind#eventNamed}).
 */
public final class CleanupRecord {
    private CleanupRecord() {}

    /** {@code resources} with {@code refs} noted as deleted (each once). */
    static RunResources noteDeleted(RunResources resources, List<String> refs) {
        List<String> deleted = new ArrayList<>(resources.list(RunResources.CLEANUP_DELETED));
        refs.stream().filter(ref -> !deleted.contains(ref)).forEach(deleted::add);
        return resources.with(RunResources.CLEANUP_DELETED, deleted);
    }

    /** What cleanup deleted, as events name resources ({@code eks:cluster/tp-…}), in the order it went. */
    public static List<String> deleted(RunRecord run) {
        return run.resources().list(RunResources.CLEANUP_DELETED);
    }

    /**
     * What the spec keeps (keepCluster, keepVolume, an adopted file system) and the record still
     * lists, and the run's outputs in S3 ({@code s3:outputs/<bucket>/<prefix>}), which cleanup never
     * deletes: they are what the run was for, not something it left behind.
     */
    public static List<String> kept(RunRecord run) {
        List<String> kept = new ArrayList<>(named(run, true));
        if (run.outputs() != null) {
            kept.add("s3:outputs/" + run.outputs().s3Uri().substring("s3://".length()));
        }
        return kept;
    }

    /** What is still there and not kept: what cleanup has yet to delete. */
    public static List<String> leftovers(RunRecord run) {
        return named(run, false);
    }

    /** Whether the run needs no more cleanup: it is over and nothing but kept resources is left. */
    public static boolean finished(RunRecord run) {
        return run.status().isTerminal() && leftovers(run).isEmpty();
    }

    /** A new cleanup, as the janitor or {@code trainplane cleanup} starts one: its own deadline, and its own Run Cleaned Up. */
    public static RunRecord restarted(RunRecord run) {
        return run.withoutResource(RunResources.CLEANUP_STARTED, RunResources.CLEANUP_FINISHED);
    }

    /** The spec's keep flags; none when the spec cannot be read (a record the janitor made for an unknown run). */
    static CleanupSpec keep(RunRecord run) {
        try {
            return RunSpecs.fromNormalized(run.specJson()).cleanup();
        } catch (RuntimeException unreadable) {
            return new CleanupSpec(false, false);
        }
    }

    /** The detail of {@code Run Cleaned Up}. */
    static ObjectNode event(RunRecord run) {
        ObjectNode detail = Json.object().put("runId", run.runId());
        deleted(run).forEach(detail.putArray("deleted")::add);
        kept(run).forEach(detail.putArray("kept")::add);
        checkpoints(run).ifPresent(uri -> detail.put("checkpoints", uri));
        return detail;
    }

    /** Where the run's checkpoints are in S3 (output.s3Uri + checkpoints/): never deleted by cleanup, named so. */
    static java.util.Optional<String> checkpoints(RunRecord run) {
        try {
            return java.util.Optional.of(
                    RunSpecs.fromNormalized(run.specJson()).output().s3Uri()
                            + io.trainplane.spec.OutputSpec.CHECKPOINTS_PREFIX);
        } catch (RuntimeException unreadable) {
            return java.util.Optional.empty();
        }
    }

    private static List<String> named(RunRecord run, boolean kept) {
        CleanupSpec keep = keep(run);
        List<String> named = new ArrayList<>();
        for (ResourceKind kind : ResourceKind.values()) {
            if (kind.kept(keep, run.resources()) == kept) {
                named.addAll(kind.eventNamed(run.resources()));
            }
        }
        return named;
    }
}
