package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.FailureReason;
import io.trainplane.core.Json;
import io.trainplane.core.TerminalException;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.kubernetes.JobPods;
import io.trainplane.kubernetes.RunObjects;
import io.trainplane.runs.RunOutputs;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.EvaluationSpec;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the evaluation's metrics ({@link EvaluationReport}: its pod's termination message, the last
 * {@code METRICS} log line as a fallback), stores them in the run record and applies the quality gate
 * on the spec's {@code evaluation.metric}. A run its budget stopped was not evaluated: only where its
 * outputs went is recorded.
 */
public final class CollectResultsStep implements KubernetesStep {
    private final RunStore store;
    private final ClusterAccess clusters;
    private final RunEventPublisher events;

    public CollectResultsStep(RunStore store, ClusterAccess clusters, RunEventPublisher events) {
        this.store = store;
        this.clusters = clusters;
        this.events = events;
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        RunObjects objects = new RunObjects(clusters.connect(run.clusterName()), run.runId());
        if (store.get(run.runId()).resources().get(RunResources.BUDGET_REACHED).isPresent()) {
            // Stopped by its budget, not evaluated: what was copied is all there is to record.
            RunOutputs copied = outputs(objects, run);
            store.update(run.runId(), r -> r.withOutputs(copied));
            ObjectNode result = Json.object().put(TrainingBudget.BUDGET_REACHED, true);
            return copied.checkpoint() == null ? result : result.put("checkpoint", copied.checkpoint());
        }
        JobPods pods =
                new JobPods(objects.client(), objects.namespace(), run.names().evaluationJob());
        String json = EvaluationReport.of(store.get(run.runId()), pods)
                .orElseThrow(
                        () -> new TerminalException(
                                FailureReason.NoMetrics,
                                "the evaluation Job ended without metrics:"
                                        + " evaluate.py must write them to /dev/termination-log or print a 'METRICS {...}' line"));
        EvaluationSpec gate = run.spec().evaluation();
        Map<String, Double> metrics = parse(json, gate.metric());
        RunOutputs outputs = outputs(objects, run);
        double value = metrics.get(gate.metric());
        boolean passed = gate.passes(value);
        // Added to what CheckTraining recorded of the training (restarts, resumedFromEpoch); the
        // gate's metric is among them, under its own name, beside accuracy when the evaluation reports it.
        store.update(run.runId(), r -> {
            Map<String, Double> all = new TreeMap<>(r.metrics());
            all.putAll(metrics);
            return r.withMetrics(all).withOutputs(outputs);
        });
        ObjectNode event = Json.object().put("runId", run.runId()).put("gatePassed", passed);
        if (EvaluationSpec.DEFAULT_METRIC.equals(gate.metric()) && gate.max() == null) {
            // What consumers of the event read before the gate could be on any metric.
            event.put("minAccuracy", gate.min() == null ? 0.0 : gate.min());
        }
        ObjectNode gateNode =
                event.putObject("gate").put("metric", gate.metric()).put("value", value);
        if (gate.min() != null) {
            gateNode.put("min", gate.min());
        }
        if (gate.max() != null) {
            gateNode.put("max", gate.max());
        }
        event.set("metrics", Json.numbers(metrics));
        events.publish("Model Evaluated", event);
        Double accuracy = metrics.get(EvaluationSpec.DEFAULT_METRIC);
        if (accuracy != null && Double.isFinite(accuracy)) {
            EmbeddedMetrics.emit(Map.of("Accuracy", accuracy), Map.of(), Map.of("runId", run.runId()));
        }
        if (!passed) {
            throw new TerminalException(
                    FailureReason.QualityGate,
                    gate.failure(value) + " (the quality gate); the model is kept out of use");
        }
        ObjectNode result = Json.object().put("gatePassed", true).put("modelUri", outputs.modelUri());
        result.set("metrics", Json.numbers(metrics));
        return result;
    }

    /**
     * What the outputs Job copied, from its termination message: the model's URI and SHA-256 (the
     * digest of the file it copied, which S3 checked with --checksum-algorithm SHA256), the
     * checkpoint's name and SHA-256.
     */
    static RunOutputs outputs(RunObjects objects, RunContext run) {
        String s3Uri = run.spec().output().s3Uri();
        String message = new JobPods(
                        objects.client(), objects.namespace(), run.names().outputsJob())
                .terminationMessage("Succeeded")
                .orElseThrow(() -> new TerminalException(
                        FailureReason.NoOutputs,
                        "the outputs Job ended without saying where the model is (its termination message is empty)"));
        try {
            JsonNode reported = Json.read(message);
            return new RunOutputs(
                    s3Uri,
                    reported.path("modelUri").asText(),
                    reported.path("modelSha256").asText(),
                    reported.path("checkpoint").asText(null),
                    reported.path("checkpointSha256").asText(null));
        } catch (RuntimeException e) {
            throw new TerminalException(
                    FailureReason.BadOutputs,
                    "the outputs Job's report is not the model's URI and SHA-256 under " + s3Uri + ": " + message,
                    e);
        }
    }

    /** The metrics JSON's numbers; {@code required} (the gate's metric) must be one of them. */
    static Map<String, Double> parse(String json, String required) {
        JsonNode node;
        try {
            node = Json.read(json);
        } catch (RuntimeException e) {
            throw new TerminalException(FailureReason.BadMetrics, "the evaluation's metrics are not JSON: " + json, e);
        }
        Map<String, Double> metrics = new LinkedHashMap<>();
        node.properties().forEach(field -> {
            if (field.getValue().isNumber()) {
                metrics.put(field.getKey(), field.getValue().asDouble());
            }
        });
        if (!metrics.containsKey(required)) {
            throw new TerminalException(
                    FailureReason.BadMetrics,
                    "the evaluation's metrics have no numeric '" + required + "', the quality gate's metric"
                            + " (evaluation.metric): " + json);
        }
        return metrics;
    }
}
