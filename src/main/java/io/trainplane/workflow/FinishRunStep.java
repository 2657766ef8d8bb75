package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.aws.Clients;
import io.trainplane.runs.RunError;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunStatus;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Ends the run after cleanup: SUCCEEDED when nothing failed, FAILED otherwise (a failed cleanup
 * fails a run that had succeeded), and publishes {@code Run Succeeded} or {@code Run Failed}.
 * Returns the outcome the state machine's last Choice and Fail state read.
 */
public final class FinishRunStep implements Step {
    private final Services services;

    public FinishRunStep(Clients clients) {
        this.services = Services.of(clients);
    }

    /** The events, as every invocation publishes one. */
    @Override
    public void prime(RunContext sample, Clients offline) {
        Services.of(offline).events().publish("Run Succeeded", Json.object().put("runId", sample.runId()));
    }

    @Override
    public JsonNode run(JsonNode input) {
        String runId = Json.text(input, "runId");
        JsonNode state = input.path("state");
        // What the execution state says went wrong: the record has it too, unless writing it failed.
        RunError fromState = state.has("failed") ? FailureReport.from(state.get("failed"))
                : state.has("cleanupFailed") ? FailureReport.from(state.get("cleanupFailed")) : null;
        Optional<RunRecord> found = services.store().find(runId);
        RunError error;
        RunRecord finished = null;
        if (found.isEmpty()) {
            // The run never started (its spec was refused): nothing to record, only to report.
            error = fromState;
        } else {
            finished = services.store().update(runId, r -> {
                if (r.status().isTerminal()) {
                    return r;
                }
                RunError e = r.error() != null ? r.error() : fromState;
                return (e == null ? r : r.withError(e)).withStatus(e == null ? RunStatus.SUCCEEDED : RunStatus.FAILED);
            });
            error = finished.error();
        }
        ObjectNode detail = Json.object().put("runId", runId);
        ObjectNode outcome = Json.object();
        if (error == null) {
            outcome.put("status", RunStatus.SUCCEEDED.name());
            if (finished != null) {
                detail.set("metrics", Json.numbers(finished.metrics()));
            }
            services.events().publish("Run Succeeded", detail);
        } else {
            outcome.put("status", RunStatus.FAILED.name()).put("failedState", error.state())
                    .put("error", error.error()).put("cause", error.cause());
            // Also for a run refused at StartRun: whoever scheduled it must hear that it failed.
            services.events().publish("Run Failed", detail.put("failedState", error.state())
                    .put("error", error.error()).put("cause", error.cause()));
        }
        Map<String, Double> values = new LinkedHashMap<>();
        values.put("RunsSucceeded", error == null ? 1.0 : 0.0);
        values.put("RunsFailed", error == null ? 0.0 : 1.0);
        if (finished != null) {
            values.put("RunDurationSeconds", (double) Duration.between(finished.createdAt(), finished.updatedAt()).toSeconds());
        }
        EmbeddedMetrics.emit(values, Map.of("RunsSucceeded", "Count", "RunsFailed", "Count", "RunDurationSeconds", "Seconds"),
                Map.of("runId", runId));
        return outcome;
    }
}
