package io.trainplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import io.trainplane.local.RunReport;
import io.trainplane.local.asl.HistoryEvent;
import io.trainplane.local.asl.SimulatedClock;
import io.trainplane.runs.TrainingProgress;
import io.trainplane.workflow.FailureReport;
import io.trainplane.workflow.PhaseTimeline;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The live view of a local run on stderr, from the execution's history: one line per phase change
 * with the finished phase's simulated duration, each failed attempt (a retry shows as the failure
 * and then the phase going on), the training's epochs from CheckTraining's looks, and the
 * outcome. With {@code --progress states} also every Task as it ends and every wait.
 */
final class Progress implements Consumer<HistoryEvent> {
    private final PrintWriter out;
    private final Instant start;
    private final long wallStart = System.nanoTime();
    private final boolean everyState;
    private final PhaseLines lines;
    private Instant taskEntered;

    Progress(PrintWriter out, SimulatedClock clock) {
        this(out, clock, PhaseLines.Mode.lines, false);
    }

    /** {@code terminal}: whether {@code out} is a terminal (where {@code auto} draws a bar). */
    Progress(PrintWriter out, SimulatedClock clock, PhaseLines.Mode mode, boolean terminal) {
        this.out = out;
        this.start = clock.instant();
        this.everyState = mode == PhaseLines.Mode.states;
        this.lines = new PhaseLines(out, mode.bar(terminal), this::stamp);
    }

    @Override
    public void accept(HistoryEvent event) {
        switch (event.type()) {
            case "TaskStateEntered" -> {
                taskEntered = event.timestamp();
                PhaseTimeline.opens(event.stateName())
                        .filter(next -> PhaseTimeline.after(next, lines.phase()))
                        .ifPresent(next -> lines.phase(next, event.timestamp()));
            }
            case "TaskStateExited" -> {
                if (everyState) {
                    lines.line(event.timestamp(), "✓ " + event.stateName() + took(event));
                }
                trainingProgress(event);
            }
            case "TaskFailed" -> lines.line(event.timestamp(), "✗ " + event.stateName() + ": " + errorName(event));
            case "WaitStateEntered" -> {
                if (everyState) {
                    lines.line(event.timestamp(), "… " + event.stateName());
                }
            }
            case "ExecutionSucceeded", "ExecutionFailed", "ExecutionAborted", "ExecutionTimedOut" ->
                lines.end(
                        event.timestamp(),
                        event.type().replace("Execution", "execution ").toLowerCase(Locale.ROOT));
            default -> {}
        }
    }

    /** CheckTraining's look puts the training's progress in its result ($.trainingStatus.progress). */
    private void trainingProgress(HistoryEvent exited) {
        JsonNode progress =
                exited.details().path("output").path("trainingStatus").path("progress");
        if (!"CheckTraining".equals(exited.stateName()) || !progress.isObject()) {
            return;
        }
        try {
            lines.epoch(new TrainingProgress(
                    progress.path("epoch").asInt(),
                    progress.path("epochs").asInt(),
                    progress.path("loss").asDouble(),
                    exited.timestamp(),
                    Instant.parse(progress.path("since").asText())));
        } catch (RuntimeException malformed) {
            // A look whose progress does not read is shown by the next one.
        }
    }

    void finish(RunReport report) {
        out.printf(
                "run %s %s in %s simulated, %.1f s wall%n",
                report.runId(),
                report.status(),
                clock(Duration.ofSeconds(report.simulatedSeconds())),
                (System.nanoTime() - wallStart) / 1e9);
    }

    /**
     * The failure's name as the run record has it (TrainingFailed), not the Java class Lambda
     * reports as the error (io.trainplane.core.TerminalException).
     */
    private static String errorName(HistoryEvent failed) {
        ObjectNode caught = Json.object();
        caught.putObject(failed.stateName())
                .put("Error", failed.details().path("error").asText("Unknown"))
                .put("Cause", failed.details().path("cause").asText(""));
        return FailureReport.from(caught).error();
    }

    private String took(HistoryEvent event) {
        return taskEntered == null
                ? ""
                : " (" + Duration.between(taskEntered, event.timestamp()).toMillis() / 1000.0 + " s)";
    }

    private String stamp(Instant at) {
        return "[" + clock(Duration.between(start, at)) + "]";
    }

    private static String clock(Duration d) {
        return String.format("%d:%02d:%02d", d.toHours(), d.toMinutesPart(), d.toSecondsPart());
    }
}
