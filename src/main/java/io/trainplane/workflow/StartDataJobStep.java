package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.kubernetes.RunObjects;
import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.runs.RunPhase;
import io.trainplane.runs.RunStatus;
import io.trainplane.runs.RunStore;

/**
 * Creates (or adopts) the workload scripts and the data Job, which prepares the data set on the
 * shared volume (a marker file there makes a rerun skip the work).
 */
public final class StartDataJobStep implements KubernetesStep {
    private final RunStore store;
    private final ClusterAccess clusters;

    public StartDataJobStep(RunStore store, ClusterAccess clusters) {
        this.store = store;
        this.clusters = clusters;
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        store.update(run.runId(), r -> r.withStatus(RunStatus.PREPARING_DATA).withPhase(RunPhase.DATA));
        WorkloadManifests manifests = RunCode.manifests(store, run.runId(), run.spec());
        RunObjects objects = new RunObjects(clusters.connect(run.clusterName()), run.runId());
        objects.createOrAdopt(manifests.workloadScripts());
        objects.createOrAdopt(manifests.dataJob());
        return Json.object().put("jobName", run.names().dataJob());
    }
}
