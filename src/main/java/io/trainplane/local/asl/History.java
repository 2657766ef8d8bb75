package io.trainplane.local.asl;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Records an execution's history events, numbered from 1 and stamped by the (simulated) clock, and
 * passes each to the listener. Like Step Functions, an execution may not exceed 25,000 events: the
 * event that would pass the limit fails the execution instead.
 */
final class History {
    static final int MAX_EVENTS = 25_000;
    private static final Set<String> CLOSING =
            Set.of("ExecutionSucceeded", "ExecutionFailed", "ExecutionAborted", "ExecutionTimedOut");

    private final Clock clock;
    private final ExecutionListener listener;
    private final List<HistoryEvent> events = new ArrayList<>();

    History(Clock clock, ExecutionListener listener) {
        this.clock = clock;
        this.listener = listener;
    }

    HistoryEvent add(String type, String stateName, JsonNode details) {
        if (events.size() >= MAX_EVENTS - 1 && !CLOSING.contains(type)) {
            throw StatesError.runtime(
                    "The execution reached the maximum number of history events (" + MAX_EVENTS + ").");
        }
        long id = events.size() + 1;
        HistoryEvent event = new HistoryEvent(id, id - 1, type, clock.instant(), stateName, details);
        events.add(event);
        listener.onEvent(event);
        return event;
    }

    List<HistoryEvent> events() {
        return List.copyOf(events);
    }
}
