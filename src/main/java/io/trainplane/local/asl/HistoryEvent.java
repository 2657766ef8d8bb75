package io.trainplane.local.asl;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/**
 * One event of an execution's history, with AWS's event type names (ExecutionStarted,
 * TaskStateEntered, TaskScheduled, ...). Ids count from 1; {@code previousEventId} is 0 for the first.
 *
 * @param stateName the state the event belongs to, or null for execution-level events
 * @param details what AWS's history carries for that type: name, input, output, error, cause,
 *     resource; input and output as JSON values rather than JSON text
 */
public record HistoryEvent(
        long id, long previousEventId, String type, Instant timestamp, String stateName, JsonNode details) {}
