package io.trainplane.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Each function's input as the state machines, EventBridge and the scheduler pass it (the
 * Parameters of statemachines/*.asl.json, events/), for one run of examples/quickstart.json. The
 * normalized spec and job names come from earlier functions' outputs, as in the pipeline.
 */
final class ColdStartInputs {
    private ColdStartInputs() {}

    static JsonNode input(String function, String runId, Path root, Map<String, JsonNode> outputs) {
        ObjectNode spec = (ObjectNode) read(root.resolve("examples/quickstart.json"));
        spec.put("runId", runId);
        // StartRun's output when it ran first; otherwise the same, normalized here (a function measured alone).
        JsonNode normalized =
                outputs.containsKey("StartRun") && outputs.get("StartRun").has("spec")
                        ? outputs.get("StartRun").get("spec")
                        : RunSpecs.normalize(Json.write(spec));
        ObjectNode step = Json.object().put("runId", runId);
        step.set("spec", normalized);
        ObjectNode state = step.deepCopy();
        return switch (function) {
            case "StartRun" -> {
                ObjectNode in = Json.object();
                in.set("spec", spec);
                yield in.put("executionName", runId)
                        .put(
                                "executionArn",
                                "arn:aws:states:" + ColdStartEndpoints.REGION + ":" + ColdStartEndpoints.ACCOUNT
                                        + ":execution:TrainingPipeline:" + runId);
            }
            case "CheckJob" ->
                step.put("purpose", "evaluation")
                        .put(
                                "jobName",
                                outputs.getOrDefault("StartEvaluation", Json.object())
                                        .path("jobName")
                                        .asText(""));
            case "RecordFailure" -> {
                ObjectNode in = Json.object().put("runId", runId);
                in.putObject("failed")
                        .putObject("CheckTraining")
                        .put("Error", "io.trainplane.core.TransientException")
                        .put("Cause", "{\"errorMessage\":\"training pods did not start\"}");
                yield in;
            }
            case "Teardown" -> Json.object().put("runId", runId);
            case "FinishRun" -> {
                ObjectNode in = Json.object().put("runId", runId);
                in.set("state", state);
                yield in;
            }
            case "CloseRun" -> {
                ObjectNode in = Json.object().put("runId", runId).put("reason", "ABORTED");
                in.set("state", Json.object().put("runId", runId));
                yield in;
            }
            case "SafetyNet" -> {
                ObjectNode event =
                        (ObjectNode) read(root.resolve("events/step-functions-execution-status-change.json"));
                ((ObjectNode) event.get("detail")).put("name", runId);
                yield event;
            }
            case "Janitor" ->
                Json.object()
                        .put("version", "0")
                        .put("detail-type", "Scheduled Event")
                        .put("source", "aws.events")
                        .put("region", ColdStartEndpoints.REGION);
            case "StartScheduledRun" -> {
                ObjectNode in = Json.object().put("series", "nightly").put("scheduledTime", "2026-11-22T03:00:00Z");
                ObjectNode scheduled = spec.deepCopy();
                scheduled.remove("runId");
                in.set("spec", scheduled);
                yield in;
            }
            default -> step;
        };
    }

    private static JsonNode read(Path file) {
        try {
            return Json.read(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
