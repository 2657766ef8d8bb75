package io.trainplane.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.StepEntry;
import io.trainplane.runs.TrainingProgress;
import io.trainplane.workflow.PhaseTimeline;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/** A run's phases with their durations, and the training's progress, as status, watch and run show them. */
final class PhasesReport {
    private static final int BAR_WIDTH = 20;

    private PhasesReport() {}

    static ArrayNode toJson(RunRecord run, List<StepEntry> steps, Instant now) {
        ArrayNode phases = Json.mapper().createArrayNode();
        for (PhaseTimeline.Phase p : PhaseTimeline.of(run, steps)) {
            ObjectNode o = phases.addObject()
                    .put("phase", p.phase().label())
                    .put("started", p.started().toString());
            o.put("ended", p.ended() == null ? null : p.ended().toString());
            o.put("durationSeconds", p.duration(now).toMillis() / 1000.0);
            o.put("running", p.ended() == null);
        }
        return phases;
    }

    static void print(PrintWriter out, RunRecord run, List<StepEntry> steps, Instant now) {
        out.println("phases:");
        for (PhaseTimeline.Phase p : PhaseTimeline.of(run, steps)) {
            out.printf(
                    "  %-10s %-24s %10s%s%n",
                    p.phase().label(),
                    p.started().truncatedTo(java.time.temporal.ChronoUnit.MILLIS),
                    duration(p.duration(now)),
                    p.ended() == null ? "  running" : "");
        }
    }

    static ObjectNode toJson(TrainingProgress p) {
        ObjectNode o = Json.object()
                .put("epoch", p.epoch())
                .put("epochs", p.epochs())
                .put("loss", p.loss())
                .put("at", p.at().toString())
                .put("since", p.since().toString());
        p.eta().ifPresentOrElse(eta -> o.put("etaSeconds", eta.toSeconds()), () -> o.putNull("etaSeconds"));
        return o;
    }

    /** {@code epoch 3/10 loss 1.2345 ETA 7m00s}: a plain line. */
    static String line(TrainingProgress p) {
        return String.format(Locale.ROOT, "epoch %d/%d loss %.4f", p.epoch(), p.epochs(), p.loss())
                + p.eta().map(eta -> " ETA " + duration(eta)).orElse("");
    }

    /** {@code [██████░░░░] epoch 3/10 loss …}: the line redrawn in place on a terminal. */
    static String bar(TrainingProgress p) {
        int filled = p.epochs() == 0 ? 0 : p.epoch() * BAR_WIDTH / p.epochs();
        return "[" + "█".repeat(filled) + "░".repeat(BAR_WIDTH - filled) + "] " + line(p);
    }

    /** Like {@link StatusCommand#duration}, with a phase shorter than a second not shown as 0s. */
    static String duration(Duration d) {
        return d.isPositive() && d.toSeconds() == 0
                ? String.format(Locale.ROOT, "%.1fs", Math.max(0.1, d.toMillis() / 1000.0))
                : StatusCommand.duration(d);
    }
}
