package io.trainplane.workflow;

import io.trainplane.core.Json;
import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.clients.Clients;
import io.trainplane.kubernetes.RunObjects;
import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.runs.RunPhase;
import io.trainplane.runs.RunStatus;

/** Creates (or adopts) the evaluation Job, which reads the trained model from the shared volume. */
public final class StartEvaluationStep implements KubernetesStep {
    private final Services services;

    public StartEvaluationStep(Clients clients) {
        this.services = Services.of(clients);
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        services.store().update(run.runId(), r -> r.withStatus(RunStatus.EVALUATING).withPhase(RunPhase.EVALUATE));
        new RunObjects(services.clusters().connect(run.clusterName()), run.runId())
                .createOrAdopt(new WorkloadManifests(run.spec()).evaluationJob());
        return Json.object().put("jobName", run.names().evaluationJob());
    }
}
