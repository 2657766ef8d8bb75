package io.trainplane.runs;

import java.time.Duration;
import java.time.Instant;

/**
 * One line of a run listing (`trainplane list`): {@code actualCost} (USD, the total of the run's
 * {@link RunCost}) is null until the run ended; {@code accuracy} is null until the evaluation
 * recorded it.
 */
public record RunSummary(
        String runId,
        RunStatus status,
        RunPhase phase,
        Instant createdAt,
        Instant updatedAt,
        Double actualCost,
        Double costHours,
        Double accuracy) {
    public RunSummary(String runId, RunStatus status, RunPhase phase, Instant createdAt, Instant updatedAt) {
        this(runId, status, phase, createdAt, updatedAt, null, null, null);
    }

    /**
     * How long the run took: from its start to the end of its cleanup once its cost is recorded
     * (a later write, the safety net's, does not lengthen it), else to its last write, or so far.
     */
    public Duration duration() {
        return costHours != null
                ? Duration.ofMillis(Math.round(costHours * 3_600_000))
                : Duration.between(createdAt, updatedAt);
    }
}
