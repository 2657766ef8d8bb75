package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.kubernetes.RunObjects;
import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.runs.RunPhase;
import io.trainplane.runs.RunStatus;
import io.trainplane.runs.RunStore;

/** Creates (or adopts) the evaluation Job, which reads the trained model from the shared volume. */
public final class StartEvaluationStep implements KubernetesStep {
    private final RunStore store;
    private final ClusterAccess clusters;

    public StartEvaluationStep(RunStore store, ClusterAccess clusters) {
        this.store = store;
        this.clusters = clusters;
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        store.update(run.runId(), r -> r.withStatus(RunStatus.EVALUATING).withPhase(RunPhase.EVALUATE));
        new RunObjects(clusters.connect(run.clusterName()), run.runId())
                .createOrAdopt(new WorkloadManifests(run.spec()).evaluationJob());
        return Json.object().put("jobName", run.names().evaluationJob());
    }
}
