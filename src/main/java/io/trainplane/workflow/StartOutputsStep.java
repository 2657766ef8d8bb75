package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.kubernetes.RunObjects;
import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStore;

/**
 * Creates (or adopts) the outputs Job: after the evaluation, it copies the model, the metrics and
 * the newest verified checkpoint from the shared volume to the spec's output.s3Uri; after a
 * training its budget stopped, the checkpoint, and the model only if the training wrote one.
 */
public final class StartOutputsStep implements KubernetesStep {
    private final RunStore store;
    private final ClusterAccess clusters;

    public StartOutputsStep(RunStore store, ClusterAccess clusters) {
        this.store = store;
        this.clusters = clusters;
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        boolean stopped = store.get(run.runId())
                .resources()
                .get(RunResources.BUDGET_REACHED)
                .isPresent();
        new RunObjects(clusters.connect(run.clusterName()), run.runId())
                .createOrAdopt(new WorkloadManifests(run.spec()).outputsJob(stopped));
        return Json.object().put("jobName", run.names().outputsJob());
    }
}
