package io.trainplane.local;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Invokes one Lambda handler on a local cloud, as the Lambda runtime would: JSON bytes in and out. */
final class Handlers {
    private final LocalCloud cloud;

    Handlers(LocalCloud cloud) {
        this.cloud = cloud;
    }

    JsonNode invoke(String function, JsonNode input) {
        StepHandler handler = Pipeline.function(function).handler(cloud.clients());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            handler.handleRequest(
                    new ByteArrayInputStream(Json.write(input).getBytes(StandardCharsets.UTF_8)), out, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Json.read(out.toString(StandardCharsets.UTF_8));
    }

    /** StartRun for a spec, as the state machine's first state calls it; returns the run's state. */
    JsonNode start(String specJson, String runId) {
        var input = Json.object()
                .put("executionName", runId)
                .put("executionArn", "arn:aws:states:us-east-1:000000000000:execution:TrainingPipeline:" + runId);
        input.set("spec", Json.read(specJson));
        return invoke("StartRun", input);
    }
}
