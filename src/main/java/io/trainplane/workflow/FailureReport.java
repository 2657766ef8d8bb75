package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import io.trainplane.core.TerminalException;
import io.trainplane.runs.RunError;
import java.util.Iterator;
import java.util.Map;

/**
 * Turns what a Catch put into the state, {@code {"<State>": {"Error": …, "Cause": …}}}, into the
 * run record's error: the failed state, a short error name, the message a person reads and the
 * log tail. The state machine writes each Catch under its own state's name, so the failed state
 * is known without an extra state per task.
 */
public final class FailureReport {
    static final String TAIL_MARKER = "\nlast lines of the failed pod:\n";

    private FailureReport() {}

    public static RunError from(JsonNode failed) {
        Iterator<Map.Entry<String, JsonNode>> fields = failed.fields();
        if (!fields.hasNext()) {
            return new RunError("unknown", "Unknown", "the run failed without an error report", null);
        }
        Map.Entry<String, JsonNode> entry = fields.next();
        String error = entry.getValue().path("Error").asText("Unknown");
        String cause = causeMessage(entry.getValue().path("Cause").asText(""));
        String name = error.substring(error.lastIndexOf('.') + 1);
        if (error.equals(TerminalException.class.getName()) && cause.indexOf(": ") > 0) {
            name = cause.substring(0, cause.indexOf(": "));
            cause = cause.substring(cause.indexOf(": ") + 2);
        }
        String logTail = null;
        int tail = cause.indexOf(TAIL_MARKER);
        if (tail >= 0) {
            logTail = cause.substring(tail + TAIL_MARKER.length());
            cause = cause.substring(0, tail);
        }
        return new RunError(entry.getKey(), name, cause, logTail);
    }

    /** Lambda reports a Java exception as JSON with {@code errorMessage}; other errors are plain text. */
    private static String causeMessage(String cause) {
        if (cause.startsWith("{")) {
            try {
                JsonNode parsed = Json.read(cause);
                if (parsed.hasNonNull("errorMessage")) {
                    return parsed.get("errorMessage").asText();
                }
            } catch (RuntimeException notJson) {
                return cause;
            }
        }
        return cause;
    }
}
