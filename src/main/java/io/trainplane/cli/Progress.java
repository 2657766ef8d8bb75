package io.trainplane.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import io.trainplane.local.RunReport;
import io.trainplane.local.asl.HistoryEvent;
import io.trainplane.local.asl.SimulatedClock;
import io.trainplane.workflow.FailureReport;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * The live view of a local run on stderr: each Task as it ends, with its simulated time, and each
 * wait. Poll loops print one line per look, so a long training shows as it is.
 */
final class Progress implements Consumer<HistoryEvent> {
    private final PrintWriter out;
    private final Instant start;
    private final long wallStart = System.nanoTime();
    private Instant taskEntered;

    Progress(PrintWriter out, SimulatedClock clock) {
        this.out = out;
        this.start = clock.instant();
    }

    @Override
    public void accept(HistoryEvent event) {
        switch (event.type()) {
            case "TaskStateEntered" -> taskEntered = event.timestamp();
            case "TaskStateExited" -> line(event, "✓ " + event.stateName() + took(event));
            case "TaskFailed" -> line(event, "✗ " + event.stateName() + ": " + errorName(event));
            case "WaitStateEntered" -> line(event, "… " + event.stateName());
            case "ExecutionSucceeded", "ExecutionFailed", "ExecutionAborted", "ExecutionTimedOut" ->
                line(event, "■ " + event.type().replace("Execution", "execution "));
            default -> {}
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

    private void line(HistoryEvent event, String text) {
        out.println("[" + clock(Duration.between(start, event.timestamp())) + "] " + text);
    }

    private static String clock(Duration d) {
        return String.format("%d:%02d:%02d", d.toHours(), d.toMinutesPart(), d.toSecondsPart());
    }
}
