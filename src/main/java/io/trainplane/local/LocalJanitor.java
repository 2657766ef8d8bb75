package io.trainplane.local;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import io.trainplane.local.asl.TaskContext;
import io.trainplane.local.asl.TaskFailure;

/**
 * One janitor sweep on a {@link LocalCloud}, as the schedule in template.yaml runs it: the Janitor
 * function invoked with a Scheduled Event, the Cleanup state machine deployed beside it.
 */
public final class LocalJanitor {
    private LocalJanitor() {}

    /** Runs one sweep; returns the Janitor function's result (what the {@code Orphans Cleaned} event reports). */
    public static JsonNode sweep(LocalCloud cloud) {
        LocalLambdas lambdas = new LocalLambdas(cloud, Faults.none());
        LocalSafetyNet.install(cloud, lambdas);
        var event = Json.object()
                .put("version", "0")
                .put("id", java.util.UUID.randomUUID().toString())
                .put("detail-type", "Scheduled Event")
                .put("source", "aws.events")
                .put("account", "000000000000")
                .put("time", cloud.clock().instant().toString())
                .put("region", "us-east-1");
        event.putArray("resources");
        event.putObject("detail");
        try {
            JsonNode result = lambdas.invoke(
                    lambdas.arn("Janitor"),
                    event,
                    new TaskContext("janitor", "Janitor", 0, cloud.clock().instant()));
            cloud.reconcile();
            return result;
        } catch (TaskFailure e) {
            throw new IllegalStateException("the janitor failed: " + e.getMessage(), e);
        }
    }
}
