package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.trainplane.aws.Clients;
import io.trainplane.kubernetes.RunObjects;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStatus;
import java.util.List;
import java.util.Optional;

/**
 * Deletes what the run created, from the resources its record lists, and reports what is left.
 * The same step serves as Teardown and CheckTeardown: asking again for a delete already under
 * way is harmless, and "already gone" counts as done.
 */
public final class TeardownStep implements Step {
    private final Services services;

    public TeardownStep(Clients clients) {
        this.services = Services.of(clients);
    }

    @Override
    public JsonNode run(JsonNode input) {
        String runId = Json.text(input, "runId");
        Optional<RunRecord> found = services.store().find(runId);
        if (found.isEmpty()) {
            return result(List.of());
        }
        services.store().update(runId, r -> r.status().isTerminal() ? r
                : r.withStatus(RunStatus.CLEANING_UP).withPhase("cleanup"));
        RunRecord run = found.get();
        String cluster = run.resources().get(RunResources.KUBERNETES_CLUSTER);
        if (cluster == null || !run.resources().containsKey(RunResources.NAMESPACE)) {
            return result(List.of());
        }
        RunObjects objects = new RunObjects(services.clusters().connect(cluster), runId);
        objects.deleteAll();
        List<String> remaining = objects.remaining();
        if (remaining.isEmpty()) {
            services.store().update(runId, r -> r.withoutResource(RunResources.NAMESPACE));
        }
        return result(remaining);
    }

    private static JsonNode result(List<String> remaining) {
        var result = Json.object().put("done", remaining.isEmpty());
        ArrayNode left = result.putArray("remaining");
        remaining.forEach(left::add);
        return result;
    }
}
