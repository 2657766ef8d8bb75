package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.FailureReason;
import io.trainplane.core.Json;
import io.trainplane.runs.RunError;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunStatus;
import io.trainplane.runs.RunStore;
import io.trainplane.runs.StepEntry;
import java.util.List;
import java.util.Optional;

/**
 * The Cleanup state machine's last step: ends a run whose pipeline stopped without ending it.
 * CANCELLED when the pipeline was stopped ({@code reason} ABORTED) and cleanup finished, unless the
 * run had failed before it was stopped; FAILED otherwise (TIMED_OUT, FAILED, ORPHANED, or cleanup itself failed), with the reason in the record's
 * error (an error the pipeline recorded first is kept). Publishes {@code Run Failed} (with the
 * run's {@code status}) when it ended the run; a run already over is left as it is.
 */
public final class CloseRunStep implements Step {
    /** Why cleanup was started: what the safety net saw, or the janitor's finding. */
    public enum Reason {
        ABORTED,
        TIMED_OUT,
        FAILED,
        ORPHANED
    }

    private final RunStore store;
    private final RunEventPublisher events;
    private final RunCostRecorder costs;

    /** Built by {@link StepWiring#closeRun}. */
    CloseRunStep(RunStore store, RunEventPublisher events, RunCostRecorder costs) {
        this.store = store;
        this.events = events;
        this.costs = costs;
    }

    @Override
    public JsonNode run(JsonNode input) {
        String runId = Json.text(input, "runId");
        Reason reason = reason(input.path("reason").asText(""));
        JsonNode state = input.path("state");
        RunError cleanupFailed = state.has("cleanupFailed") ? FailureReport.from(state.get("cleanupFailed")) : null;
        RunError closing =
                cleanupFailed != null ? cleanupFailed : new RunError(null, errorName(reason), cause(reason), null);

        Optional<RunRecord> found = store.find(runId);
        // A run stopped after it had failed (its pipeline's cleanup, or the janitor's RunExpired) stays failed.
        boolean failedBefore = found.map(r -> r.error() != null).orElse(false);
        RunStatus status = reason == Reason.ABORTED && cleanupFailed == null && !failedBefore
                ? RunStatus.CANCELLED
                : RunStatus.FAILED;
        RunError error;
        RunRecord closed = null;
        if (found.isEmpty()) {
            // Stopped before StartRun wrote the record: nothing to end, but whoever started it must hear.
            error = closing;
        } else if (found.get().status().isTerminal()) {
            return outcome(found.get().status(), found.get().error(), false);
        } else {
            boolean[] changed = {false};
            // A run the safety net closes ends here: its cost is recorded here.
            List<StepEntry> steps = costs.steps(runId);
            closed = store.update(runId, r -> {
                changed[0] = !r.status().isTerminal();
                return changed[0]
                        ? costs.withCost(
                                r.withError(r.error() != null ? r.error() : closing)
                                        .withStatus(status),
                                steps)
                        : r;
            });
            if (!changed[0]) {
                return outcome(closed.status(), closed.error(), false);
            }
            error = closed.error();
        }
        ObjectNode detail = RunFailedEvent.detail(runId, status, error);
        if (closed != null && closed.cost() != null) {
            detail.set("actualCost", RunCostRecorder.json(closed.cost()));
        }
        events.publish("Run Failed", detail);
        return outcome(status, error, true);
    }

    private static Reason reason(String text) {
        try {
            return Reason.valueOf(text);
        } catch (IllegalArgumentException e) {
            return Reason.FAILED;
        }
    }

    private static String errorName(Reason reason) {
        return switch (reason) {
            case ABORTED -> FailureReason.ExecutionAborted.name();
            case TIMED_OUT -> FailureReason.ExecutionTimedOut.name();
            case FAILED -> FailureReason.ExecutionFailed.name();
            case ORPHANED -> FailureReason.Orphaned.name();
        };
    }

    private static String cause(Reason reason) {
        return switch (reason) {
            case ABORTED -> "the execution was stopped; the safety net cleaned up";
            case TIMED_OUT -> "the execution timed out; the safety net cleaned up";
            case FAILED -> "the execution failed before its cleanup finished; the safety net cleaned up";
            case ORPHANED -> "the run left resources behind; the janitor cleaned up";
        };
    }

    private static JsonNode outcome(RunStatus status, RunError error, boolean closed) {
        ObjectNode outcome = Json.object().put("status", status.name()).put("closed", closed);
        if (error != null) {
            outcome.put("error", error.error()).put("cause", error.fullCause());
        }
        return outcome;
    }
}
