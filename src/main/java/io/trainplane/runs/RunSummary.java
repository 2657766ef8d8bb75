package io.trainplane.runs;

import java.time.Instant;

/** One line of a run listing (`trainplane list`). */
public record RunSummary(String runId, RunStatus status, RunPhase phase, Instant createdAt, Instant updatedAt) {}
