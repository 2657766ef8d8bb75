package io.trainplane.local.asl;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * How an execution ended.
 *
 * @param output the execution output when SUCCEEDED, otherwise null
 * @param error the error name when FAILED or TIMED_OUT (null when ABORTED)
 * @param cause the cause, when there is one
 * @param stateTransitions the state transitions AWS would bill: one per state entered, one per retry
 */
public record ExecutionResult(
        String executionName,
        ExecutionStatus status,
        JsonNode output,
        String error,
        String cause,
        List<HistoryEvent> history,
        int stateTransitions,
        Instant startDate,
        Instant stopDate) {
    public ExecutionResult {
        history = List.copyOf(history);
    }

    /** The events of one type, in order. */
    public List<HistoryEvent> events(String type) {
        return history.stream().filter(e -> e.type().equals(type)).toList();
    }
}
