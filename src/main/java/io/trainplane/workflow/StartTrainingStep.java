package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.Clients;
import io.trainplane.kubernetes.RunObjects;
import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.runs.RunStatus;

/** Creates (or adopts) the workload scripts, the rendezvous Service and the training Job. */
public final class StartTrainingStep implements Step {
    private final Services services;

    public StartTrainingStep(Clients clients) {
        this.services = Services.of(clients);
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        services.store().update(run.runId(), r -> r.withStatus(RunStatus.TRAINING).withPhase("train"));
        WorkloadManifests manifests = new WorkloadManifests(run.spec());
        RunObjects objects = new RunObjects(services.clusters().connect(run.clusterName()), run.runId());
        objects.createOrAdopt(manifests.workloadScripts());
        objects.createOrAdopt(manifests.trainingService());
        objects.createOrAdopt(manifests.trainingJob());
        return Json.object().put("jobName", run.names().trainingJob());
    }
}
