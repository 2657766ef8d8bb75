package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.kubernetes.RunObjects;
import io.trainplane.kubernetes.WorkloadManifests;

/**
 * Creates (or adopts) the outputs Job: after the evaluation, it copies the model, the metrics and
 * the newest verified checkpoint from the shared volume to the spec's output.s3Uri.
 */
public final class StartOutputsStep implements KubernetesStep {
    private final ClusterAccess clusters;

    public StartOutputsStep(ClusterAccess clusters) {
        this.clusters = clusters;
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        new RunObjects(clusters.connect(run.clusterName()), run.runId())
                .createOrAdopt(new WorkloadManifests(run.spec()).outputsJob());
        return Json.object().put("jobName", run.names().outputsJob());
    }
}
