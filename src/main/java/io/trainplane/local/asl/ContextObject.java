package io.trainplane.local.asl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The context object ({@code $$}) of a local execution, with ARNs in the local region and account:
 * arn:aws:states:local:000000000000:execution:&lt;machine&gt;:&lt;name&gt;.
 */
final class ContextObject {
    static final String ARN_PREFIX = "arn:aws:states:local:000000000000:";
    private static final DateTimeFormatter TIMESTAMP =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private final ObjectNode execution;
    private final ObjectNode stateMachine;

    ContextObject(String machineName, String executionName, Instant startTime, JsonNode input) {
        this.stateMachine = Json.object()
                .put("Id", ARN_PREFIX + "stateMachine:" + machineName)
                .put("Name", machineName);
        this.execution = Json.object()
                .put("Id", ARN_PREFIX + "execution:" + machineName + ":" + executionName)
                .put("Name", executionName)
                .put("RoleArn", "arn:aws:iam::000000000000:role/" + machineName + "Role")
                .put("StartTime", format(startTime))
                .put("RedriveCount", 0);
        this.execution.set("Input", input);
    }

    static String format(Instant instant) {
        return TIMESTAMP.format(instant);
    }

    String roleArn() {
        return execution.get("RoleArn").textValue();
    }

    /** The context object as seen from a state entered at {@code enteredTime}, on its nth retry. */
    JsonNode forState(String stateName, Instant enteredTime, int retryCount) {
        ObjectNode context = Json.object();
        context.set("Execution", execution);
        context.set(
                "State",
                Json.object()
                        .put("EnteredTime", format(enteredTime))
                        .put("Name", stateName)
                        .put("RetryCount", retryCount));
        context.set("StateMachine", stateMachine);
        return context;
    }
}
