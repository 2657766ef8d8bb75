package io.trainplane.runs;

import java.time.Duration;
import java.time.Instant;

/**
 * One line of a run listing (`trainplane list`): {@code actualCost} (USD, the total of the run's
 * {@link RunCost}) is null until the run ended; {@code metric} is the spec's gate metric
 * ({@code evaluation.metric}, accuracy by default) and {@code metricValue} its value, null until
 * the evaluation recorded it.
 */
public record RunSummary(
        String runId,
        RunStatus status,
        RunPhase phase,
        Instant createdAt,
        Instant updatedAt,
        Double actualCost,
        Double costHours,
        String metric,
        Double metricValue) {
    public RunSummary(String runId, RunStatus status, RunPhase phase, Instant createdAt, Instant updatedAt) {
        this(runId, status, phase, createdAt, updatedAt, null, null, "accuracy", null);
    }

    /** The evaluation's accuracy when the gate is on accuracy, else null. */
    public Double accuracy() {
        return "accuracy".equals(metric) ? metricValue : null;
    }

    /** The metric a spec's quality gate is on: {@code evaluation.metric}, else accuracy. */
    public static String gateMetric(String specJson) {
        if (specJson == null || specJson.isBlank()) {
            return "accuracy";
        }
        try {
            String metric = io.trainplane.core.Json.read(specJson)
                    .path("evaluation")
                    .path("metric")
                    .asText("");
            return metric.isEmpty() ? "accuracy" : metric;
        } catch (RuntimeException unreadable) {
            return "accuracy";
        }
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
