package io.trainplane.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.runs.CleanupFailure;
import io.trainplane.runs.Leftover;
import io.trainplane.runs.LostEvent;
import io.trainplane.runs.RunError;
import io.trainplane.runs.RunRecord;
import io.trainplane.workflow.RunFailedEvent;
import java.io.PrintWriter;
import java.util.List;
import java.util.Objects;

/**
 * What a run leaves for people to act on, as status, watch and run's summary print it: what a
 * cleanup that gave up left behind and what removes it, and the warnings (events that were lost).
 */
final class LeftBehind {
    private LeftBehind() {}

    /** The cleanup command with the stack the user named, when the record could not know it. */
    static String command(CleanupFailure cleanup, String stack) {
        return stack == null ? cleanup.command() : cleanup.command().replace("--stack <stack>", "--stack " + stack);
    }

    /**
     * Labelled lines ({@code width} wide labels, as the caller's other lines). The cleanup's own
     * error is left out when it is the run's error (the run failed only in its cleanup).
     */
    static void print(PrintWriter out, RunError error, String stack, int width) {
        CleanupFailure cleanup = error.cleanup();
        if (!Objects.equals(cleanup.error(), error.error())) {
            out.println(label("cleanup:", width) + "gave up, " + cleanup.error()
                    + (cleanup.cause() == null ? "" : ": " + cleanup.cause()));
        }
        for (Leftover l : cleanup.leftBehind()) {
            out.println(label("left:", width) + l.ref());
        }
        out.println(
                label("removed by:", width)
                        + (cleanup.janitorRemovesAll()
                                ? "the janitor, on its next sweep (hourly by default), or now by the command below"
                                : "nothing automatic (the janitor finds tagged EKS clusters and EFS file systems only): run the command below"));
        out.println(label("delete now:", width) + command(cleanup, stack));
    }

    static void printWarnings(PrintWriter out, RunRecord run, int width) {
        warnings(run).forEach(warning -> out.println(label("warning:", width) + warning));
    }

    /** {@code status --output json}'s additions: {@code cleanup} in the error, {@code lostEvents} and {@code warnings}. */
    static void addTo(ObjectNode status, RunRecord run, String stack) {
        if (run.error() != null && run.error().cleanup() != null) {
            ObjectNode cleanup = RunFailedEvent.cleanup(run.error().cleanup());
            cleanup.put("command", command(run.error().cleanup(), stack));
            status.with("error").set("cleanup", cleanup);
        }
        ArrayNode lost = status.putArray("lostEvents");
        for (LostEvent e : run.lostEvents()) {
            lost.addObject()
                    .put("detailType", e.detailType())
                    .put("step", e.step())
                    .put("error", e.error())
                    .put("at", e.at().toString());
        }
        ArrayNode warnings = status.putArray("warnings");
        warnings(run).forEach(warnings::add);
    }

    static List<String> warnings(RunRecord run) {
        List<String> warnings = new java.util.ArrayList<>(
                run.lostEvents().stream().map(LostEvent::warning).toList());
        run.resources()
                .get(io.trainplane.runs.RunResources.CHECKPOINT_SYNC_FAILED)
                .ifPresent(reason -> warnings.add("checkpoints not synced to S3: " + reason));
        return warnings;
    }

    private static String label(String name, int width) {
        return name.length() >= width ? name + " " : String.format("%-" + width + "s", name);
    }
}
