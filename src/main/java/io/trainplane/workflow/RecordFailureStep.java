package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import io.trainplane.runs.RunError;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunStatus;
import io.trainplane.runs.RunStore;
import java.util.Optional;

/**
 * Writes a failure into the run record (state, error, message, log tail) before cleanup starts.
 * With {@code final: true} (the last resort when FinishRun itself failed) it also ends the run.
 */
public final class RecordFailureStep implements Step {
    private final RunStore store;
    private final RunEventPublisher events;

    public RecordFailureStep(RunStore store, RunEventPublisher events) {
        this.store = store;
        this.events = events;
    }

    @Override
    public JsonNode run(JsonNode input) {
        String runId = Json.text(input, "runId");
        RunError error = FailureReport.from(input.path("failed"));
        boolean ending = input.path("final").asBoolean(false);
        Optional<RunRecord> existing = store.find(runId);
        if (existing.isPresent() && !existing.get().status().isTerminal()) {
            RunStatus next = ending ? RunStatus.FAILED : RunStatus.CLEANING_UP;
            RunRecord recorded = store.update(
                    runId,
                    r -> r.status().isTerminal()
                            ? r
                            : r.withError(r.error() == null ? error : r.error()).withStatus(next));
            if (ending) {
                // The run's first error, with what cleanup left if it gave up: not FinishRun's own failure.
                RunError first = recorded.error() == null ? error : recorded.error();
                events.publish("Run Failed", RunFailedEvent.detail(runId, null, first));
            }
        }
        return Json.object()
                .put("state", error.state())
                .put("error", error.error())
                .put("cause", error.cause());
    }
}
