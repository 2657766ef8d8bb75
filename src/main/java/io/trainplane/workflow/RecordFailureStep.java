package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import io.trainplane.runs.RunError;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunStatus;
import io.trainplane.runs.RunStore;
import io.trainplane.runs.StepEntry;
import java.util.List;
import java.util.Optional;

/**
 * Writes a failure into the run record (state, error, message, log tail) before cleanup starts.
 * With {@code final: true} (the last resort when FinishRun itself failed) it also ends the run.
 */
public final class RecordFailureStep implements Step {
    private final RunStore store;
    private final RunEventPublisher events;
    private final RunCostRecorder costs;

    public RecordFailureStep(RunStore store, RunEventPublisher events, RunCostRecorder costs) {
        this.store = store;
        this.events = events;
        this.costs = costs;
    }

    @Override
    public JsonNode run(JsonNode input) {
        String runId = Json.text(input, "runId");
        RunError error = FailureReport.from(input.path("failed"));
        boolean ending = input.path("final").asBoolean(false);
        Optional<RunRecord> existing = store.find(runId);
        if (existing.isPresent() && !existing.get().status().isTerminal()) {
            RunStatus next = ending ? RunStatus.FAILED : RunStatus.CLEANING_UP;
            // Ending the run (FinishRun failed), its cost is recorded here: no other step will.
            List<StepEntry> steps = ending ? costs.steps(runId) : List.of();
            RunRecord recorded = store.update(runId, r -> {
                if (r.status().isTerminal()) {
                    return r;
                }
                RunRecord failed =
                        r.withError(r.error() == null ? error : r.error()).withStatus(next);
                return ending ? costs.withCost(failed, steps) : failed;
            });
            if (ending) {
                // The run's first error, with what cleanup left if it gave up: not FinishRun's own failure.
                RunError first = recorded.error() == null ? error : recorded.error();
                ObjectNode detail = RunFailedEvent.detail(runId, null, first);
                if (recorded.cost() != null) {
                    detail.set("actualCost", RunCostRecorder.json(recorded.cost()));
                }
                events.publish("Run Failed", detail);
            }
        }
        return Json.object()
                .put("state", error.state())
                .put("error", error.error())
                .put("cause", error.cause());
    }
}
