package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.trainplane.core.Json;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.kubernetes.RunObjects;
import io.trainplane.kubernetes.VolumeManifests;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunResources.Key;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.VolumeType;

/**
 * Makes the run's EFS or FSx for Lustre file system mountable by its pods: StorageClass,
 * PersistentVolume, claim. An FSx one is mounted by its DNS name and mount name, which CheckVolume
 * wrote into the record: this function ships no FSx client.
 */
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
        RunResources resources = store.get(run.runId()).resources();
        boolean lustre = run.spec().volume().type() == VolumeType.FSX_LUSTRE;
        String fileSystemId =
                required(run, resources, lustre ? RunResources.LUSTRE_FILE_SYSTEM : RunResources.FILE_SYSTEM);
        VolumeManifests manifests = lustre
                ? VolumeManifests.lustre(
                        run.names(),
                        fileSystemId,
                        required(run, resources, RunResources.LUSTRE_DNS_NAME),
                        required(run, resources, RunResources.LUSTRE_MOUNT_NAME),
                        run.spec().volume().lustreStorageCapacityGiB())
                : new VolumeManifests(run.names(), fileSystemId);
        RunObjects objects = new RunObjects(clusters.connect(run.clusterName()), run.runId());
        for (HasMetadata object : manifests.all()) {
            objects.createOrAdopt(object);
        }
        return Json.object().put("fileSystemId", fileSystemId).put("claim", VolumeManifests.CLAIM);
    }

    private static String required(RunContext run, RunResources resources, Key<String> key) {
        return resources
                .get(key)
                .orElseThrow(() -> new IllegalStateException("run " + run.runId() + " has no " + key.name()
                        + " to bind; CreateVolume and CheckVolume run first"));
    }
}
