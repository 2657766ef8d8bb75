package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.trainplane.core.Json;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.kubernetes.RunObjects;
import io.trainplane.kubernetes.VolumeManifests;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStore;

/** Makes the run's EFS file system mountable by its pods: StorageClass, PersistentVolume, claim. */
public final class BindVolumeStep implements KubernetesStep {
    private final RunStore store;
    private final ClusterAccess clusters;

    public BindVolumeStep(RunStore store, ClusterAccess clusters) {
        this.store = store;
        this.clusters = clusters;
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        String fileSystemId = store.get(run.runId())
                .resources()
                .get(RunResources.FILE_SYSTEM)
                .orElseThrow(() -> new IllegalStateException(
                        "run " + run.runId() + " has no file system to bind; CreateVolume runs first"));
        RunObjects objects = new RunObjects(clusters.connect(run.clusterName()), run.runId());
        for (HasMetadata object : new VolumeManifests(run.names(), fileSystemId).all()) {
            objects.createOrAdopt(object);
        }
        return Json.object().put("fileSystemId", fileSystemId).put("claim", VolumeManifests.CLAIM);
    }
}
