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
        Double accuracy) {
    public RunSummary(String runId, RunStatus status, RunPhase phase, Instant createdAt, Instant updatedAt) {
        this(runId, status, phase, createdAt, updatedAt, null, null);
    }

    /** How long the run took (start to its last write, the end of cleanup once it ended), or lasted so far. */
    public Duration duration() {
        return Duration.between(createdAt, updatedAt);
    }
}
