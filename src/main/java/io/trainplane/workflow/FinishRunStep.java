package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.FailureReason;
import io.trainplane.core.Json;
import io.trainplane.runs.RunError;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStatus;
import io.trainplane.runs.RunStore;
import io.trainplane.runs.StepEntry;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Ends the run after cleanup: SUCCEEDED when nothing failed, BUDGET_REACHED when nothing failed but
 * its budget stopped the training, FAILED otherwise (a failed cleanup fails a run that had
 * succeeded), and publishes {@code Run Succeeded}, {@code Run Stopped} or {@code Run Failed}; the
 * failure's cause ends with what cleanup left behind and what removes it.
 * Returns the outcome the state machine's last Choice and Fail state read.
 */
public final class FinishRunStep implements Step {
    /** The event of a run that ended BUDGET_REACHED, and its reason (the execution's error too). */
    static final String RUN_STOPPED = "Run Stopped";

    static final String BUDGET_REACHED = FailureReason.BudgetReached.name();

    private final RunStore store;
    private final RunEventPublisher events;
    private final String stackName;
    private final RunCostRecorder costs;

    /** {@code stackName}: the stack the cleanup commands of a failure's cause name. */
    public FinishRunStep(RunStore store, RunEventPublisher events, String stackName, RunCostRecorder costs) {
        this.store = store;
        this.events = events;
        this.stackName = stackName;
        this.costs = costs;
    }

    @Override
    public JsonNode run(JsonNode input) {
        String runId = Json.text(input, "runId");
        JsonNode state = input.path("state");
        // What the execution state says went wrong: the record has it too, unless writing it failed.
        RunError fromState = state.has("failed")
                ? FailureReport.from(state.get("failed"))
                : state.has("cleanupFailed") ? FailureReport.from(state.get("cleanupFailed")) : null;
        Optional<RunRecord> found = store.find(runId);
        RunError error;
        RunRecord finished = null;
        if (found.isEmpty()) {
            // The run never started (its spec was refused): nothing to record, only to report.
            error = fromState;
        } else {
            RunError cleanupFailed = state.has("cleanupFailed") ? FailureReport.from(state.get("cleanupFailed")) : null;
            List<StepEntry> steps = costs.steps(runId);
            finished = store.update(runId, r -> {
                if (r.status().isTerminal()) {
                    return costs.withCost(r, steps);
                }
                RunError e = withLeftovers(r, r.error() != null ? r.error() : fromState, cleanupFailed);
                RunStatus status = e != null
                        ? RunStatus.FAILED
                        : r.resources().get(RunResources.BUDGET_REACHED).isPresent()
                                ? RunStatus.BUDGET_REACHED
                                : RunStatus.SUCCEEDED;
                return costs.withCost((e == null ? r : r.withError(e)).withStatus(status), steps);
            });
            error = finished.error();
        }
        ObjectNode detail = Json.object().put("runId", runId);
        ObjectNode outcome = Json.object();
        if (error == null && finished != null && finished.status() == RunStatus.BUDGET_REACHED) {
            String why = finished.resources().get(RunResources.BUDGET_REACHED).orElseThrow();
            String kept = finished.outputs() == null || finished.outputs().checkpoint() == null
                    ? "; it wrote no checkpoint that could be kept"
                    : "; its checkpoint " + finished.outputs().s3Uri()
                            + finished.outputs().checkpoint() + " is kept: a run with training.resumeFrom \"" + runId
                            + "\" goes on from it";
            outcome.put("status", RunStatus.BUDGET_REACHED.name())
                    .put("error", BUDGET_REACHED)
                    .put("cause", why + kept);
            detail.put("reason", BUDGET_REACHED).put("message", why + kept);
            detail.set("metrics", Json.numbers(finished.metrics()));
            if (finished.outputs() != null) {
                detail.set("output", RunOutputsJson.of(finished.outputs()));
            }
            if (finished.cost() != null) {
                detail.set("actualCost", RunCostRecorder.json(finished.cost()));
            }
            events.publish(RUN_STOPPED, detail);
        } else if (error == null) {
            outcome.put("status", RunStatus.SUCCEEDED.name());
            if (finished != null) {
                detail.set("metrics", Json.numbers(finished.metrics()));
                if (finished.outputs() != null) {
                    detail.set("output", RunOutputsJson.of(finished.outputs()));
                }
            }
            if (finished != null && finished.cost() != null) {
                detail.set("actualCost", RunCostRecorder.json(finished.cost()));
            }
            events.publish("Run Succeeded", detail);
        } else {
            outcome.put("status", RunStatus.FAILED.name())
                    .put("failedState", error.state())
                    .put("error", error.error())
                    .put("cause", error.fullCause());
            // Also for a run refused at StartRun: whoever scheduled it must hear that it failed.
            ObjectNode failed = RunFailedEvent.detail(runId, null, error);
            if (finished != null && finished.cost() != null) {
                failed.set("actualCost", RunCostRecorder.json(finished.cost()));
            }
            events.publish("Run Failed", failed);
        }
        Map<String, Double> values = new LinkedHashMap<>();
        boolean succeeded =
                RunStatus.SUCCEEDED.name().equals(outcome.path("status").asText());
        values.put("RunsSucceeded", succeeded ? 1.0 : 0.0);
        values.put("RunsFailed", error == null ? 0.0 : 1.0);
        values.put("RunsStopped", error == null && !succeeded ? 1.0 : 0.0);
        if (finished != null) {
            values.put("RunDurationSeconds", (double)
                    Duration.between(finished.createdAt(), finished.updatedAt()).toSeconds());
            if (finished.cost() != null) {
                // The dashboard's cost widget graphs it (template.yaml); dollars have no CloudWatch unit.
                values.put("RunCost", finished.cost().total());
            }
        }
        EmbeddedMetrics.emit(
                values,
                Map.of(
                        "RunsSucceeded",
                        "Count",
                        "RunsFailed",
                        "Count",
                        "RunsStopped",
                        "Count",
                        "RunDurationSeconds",
                        "Seconds",
                        "RunCost",
                        "None"),
                Map.of("runId", runId));
        return outcome;
    }

    /**
     * The run's error with what cleanup left, when cleanup failed without writing it (the last
     * pass failed otherwise: a timeout, a crash): then the record's resources say what is left.
     */
    private RunError withLeftovers(RunRecord run, RunError error, RunError cleanupFailed) {
        if (error == null || error.cleanup() != null || cleanupFailed == null) {
            return error;
        }
        List<String> left = Leftovers.recorded(run);
        return left.isEmpty()
                ? error
                : error.withCleanup(
                        Leftovers.failure(run, cleanupFailed.error(), cleanupFailed.cause(), left, stackName));
    }
}
