package io.trainplane.local;

import java.util.List;
import java.util.Map;

/**
 * What {@code trainplane run --output json} prints at the end of a local run. {@code status} is
 * the run's (SUCCEEDED, FAILED or CANCELLED); {@code executionStatus} the state machine's.
 */
public record RunReport(
        String runId,
        String status,
        String failedState,
        String error,
        String cause,
        Map<String, Double> metrics,
        List<String> events,
        int stateTransitions,
        Map<String, Integer> calls,
        Resources resources,
        String executionStatus,
        long simulatedSeconds,
        long wallMillis) {

    public record Resources(List<String> created, List<String> remaining) {}

    public boolean succeeded() {
        return "SUCCEEDED".equals(status);
    }
}
