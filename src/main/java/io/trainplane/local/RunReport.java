package io.trainplane.local;

import io.trainplane.runs.CleanupFailure;
import io.trainplane.runs.RunCost;
import java.util.List;
import java.util.Map;

/**
 * What {@code trainplane run --output json} prints at the end of a local run. {@code status} is
 * the run's (SUCCEEDED, BUDGET_REACHED, FAILED or CANCELLED; a BUDGET_REACHED run's {@code error}
 * and {@code cause} say why it stopped); {@code executionStatus} the state machine's.
 * {@code logTail} is the failed pod's last lines, led by the user's own traceback when the log
 * holds one ({@link io.trainplane.kubernetes.UserTraceback}).
 * {@code cleanup} is the run error's account of what a cleanup that gave up left behind (null when
 * it did not give up): it names what {@code resources.remaining} lists. {@code warnings} are what
 * went wrong without failing the run (events EventBridge did not take), one sentence each.
 */
public record RunReport(
        String runId,
        String status,
        String failedState,
        String error,
        String cause,
        String logTail,
        CleanupFailure cleanup,
        Map<String, Double> metrics,
        List<String> events,
        List<String> warnings,
        int stateTransitions,
        Map<String, Integer> calls,
        Resources resources,
        String executionStatus,
        long simulatedSeconds,
        long wallMillis,
        RunCost cost) {

    public record Resources(List<String> created, List<String> remaining) {}

    public boolean succeeded() {
        return "SUCCEEDED".equals(status);
    }
}
