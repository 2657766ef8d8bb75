package io.trainplane.workflow;

import io.trainplane.core.Json;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.trainplane.clients.Clients;
import io.trainplane.kubernetes.RunObjects;
import io.trainplane.kubernetes.VolumeManifests;
import io.trainplane.runs.RunResources;

/** Makes the run's EFS file system mountable by its pods: StorageClass, PersistentVolume, claim. */
public final class BindVolumeStep implements KubernetesStep {
    private final Services services;

    public BindVolumeStep(Clients clients) {
        this.services = Services.of(clients);
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        String fileSystemId = services.store().get(run.runId()).resources().get(RunResources.FILE_SYSTEM).orElseThrow(() ->
                new IllegalStateException("run " + run.runId() + " has no file system to bind; CreateVolume runs first"));
        RunObjects objects = new RunObjects(services.clusters().connect(run.clusterName()), run.runId());
        for (HasMetadata object : new VolumeManifests(run.names(), fileSystemId).all()) {
            objects.createOrAdopt(object);
        }
        return Json.object().put("fileSystemId", fileSystemId).put("claim", VolumeManifests.CLAIM);
    }
}
