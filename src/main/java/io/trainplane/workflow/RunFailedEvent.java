package io.trainplane.workflow;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import io.trainplane.runs.CleanupFailure;
import io.trainplane.runs.Leftover;
import io.trainplane.runs.RunError;
import io.trainplane.runs.RunStatus;

/**
 * The detail of {@code Run Failed} (events/schemas/run-failed.schema.json), the same from every
 * step that ends a run without success: the failed state, the error, the cause (followed by what
 * cleanup left behind, so a notification names it) and, when cleanup gave up, each resource left
 * with what removes it.
 */
public final class RunFailedEvent {
    private RunFailedEvent() {}

    /** {@code status} null leaves it out (it means FAILED). */
    static ObjectNode detail(String runId, RunStatus status, RunError error) {
        ObjectNode detail = Json.object().put("runId", runId);
        if (status != null) {
            detail.put("status", status.name());
        }
        detail.put("failedState", error.state()).put("error", error.error()).put("cause", error.fullCause());
        if (error.cleanup() != null) {
            detail.set("cleanup", cleanup(error.cleanup()));
        }
        return detail;
    }

    /** What a cleanup that gave up left, as the event, {@code status --output json} and the local summary write it. */
    public static ObjectNode cleanup(CleanupFailure cleanup) {
        ObjectNode node = Json.object().put("error", cleanup.error()).put("cause", cleanup.cause());
        ArrayNode left = node.putArray("leftBehind");
        for (Leftover l : cleanup.leftBehind()) {
            left.addObject().put("kind", l.kind()).put("id", l.id()).put("removedBy", l.removedBy());
        }
        return node.put("command", cleanup.command());
    }
}
