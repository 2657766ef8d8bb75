package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.ClusterNetwork;
import io.trainplane.aws.ResourceState;
import io.trainplane.aws.RunTags;
import io.trainplane.aws.Settings;
import io.trainplane.aws.eks.EksClusters;
import io.trainplane.aws.fsx.LustreVolumes;
import io.trainplane.core.FailureReason;
import io.trainplane.core.Json;
import io.trainplane.core.TerminalException;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.VolumeSpec;
import java.util.List;
import java.util.function.Supplier;

/**
 * CreateVolume and CheckVolume for {@code volume.type: fsx-lustre}. The file system is guarded by
 * the cluster's security group (see LustreRequests), which exists once the cluster does: CreateVolume
 * adopts {@code volume.fileSystemId}, or writes down the ClientRequestToken of the run's file
 * system; CheckVolume creates it at its first look with the cluster's group (on a created cluster
 * that is OpenMountTargets, as soon as the cluster is ACTIVE, so the file system comes up beside
 * the node groups), then waits for AVAILABLE and writes its DNS name and mount name into the
 * record for BindVolume; with S3 paths it then links the file system to them (data repository
 * associations, LustreRequests) and waits for the links too.
 */
final class LustreVolumeSteps {
    private final RunStore store;
    private final Supplier<LustreVolumes> volumes;
    private final Supplier<EksClusters> clusters;
    private final Settings settings;

    LustreVolumeSteps(
            RunStore store, Supplier<LustreVolumes> volumes, Supplier<EksClusters> clusters, Settings settings) {
        this.store = store;
        this.volumes = volumes;
        this.clusters = clusters;
        this.settings = settings;
    }

    JsonNode create(RunContext run) {
        String adopt = run.spec().volume().fileSystemId();
        if (adopt != null) {
            LustreVolumes.Adoptable found = volumes.get().checkAdoptable(adopt);
            // StartRun claimed it: what the run needs now is how to mount it.
            LustreVolumes.Mount mount = found.mount();
            store.update(run.runId(), r -> r.withResource(RunResources.LUSTRE_FILE_SYSTEM, adopt)
                    .withResource(RunResources.LUSTRE_FILE_SYSTEM_ADOPTED, true)
                    .withResource(RunResources.LUSTRE_DNS_NAME, mount.dnsName())
                    .withResource(RunResources.LUSTRE_MOUNT_NAME, mount.mountName()));
            return Json.object().put("fileSystemId", adopt).put("adopted", true);
        }
        String token = run.names().lustreRequestToken();
        store.update(run.runId(), r -> r.withResource(RunResources.LUSTRE_REQUEST_TOKEN, token));
        return Json.object().put("clientRequestToken", token).put("adopted", false);
    }

    JsonNode check(RunContext run) {
        RunRecord record = store.get(run.runId());
        String fileSystem =
                record.resources().get(RunResources.LUSTRE_FILE_SYSTEM).orElse(null);
        if (fileSystem == null) {
            String securityGroup = clusters.get().describe(run.clusterName()).clusterSecurityGroupId();
            if (securityGroup == null) {
                return ResourceWait.look(
                        new ResourceState.Creating(
                                "the cluster's security group, which guards the file system, is" + " not there yet"),
                        "FSx for Lustre file system " + run.names().lustreRequestToken(),
                        CheckVolumeStep.WAIT_SECONDS);
            }
            ClusterNetwork network = settings.network();
            if (network.subnetIds().isEmpty()) {
                throw new TerminalException(
                        FailureReason.NoSubnets,
                        "no subnet was given for the FSx for Lustre file system: deploy the stack with the cluster's"
                                + " subnets");
            }
            String id = volumes.get()
                    .createFileSystem(
                            run.names(),
                            RunTags.of(settings, run.names()),
                            run.spec().volume(),
                            network.subnetIds().getFirst(),
                            List.of(securityGroup));
            store.update(run.runId(), r -> r.withResource(RunResources.LUSTRE_FILE_SYSTEM, id));
            fileSystem = id;
        }
        String what = "FSx for Lustre file system " + fileSystem;
        ResourceState state = volumes.get().fileSystemState(fileSystem);
        if (state instanceof ResourceState.Ready && !record.resources().has(RunResources.LUSTRE_MOUNT_NAME)) {
            String id = fileSystem;
            LustreVolumes.Mount mount = volumes.get()
                    .mount(id)
                    .orElseThrow(() -> new TerminalException(
                            FailureReason.FileSystemNotFound, "FSx for Lustre file system " + id + " disappeared"));
            store.update(run.runId(), r -> r.withResource(RunResources.LUSTRE_DNS_NAME, mount.dnsName())
                    .withResource(RunResources.LUSTRE_MOUNT_NAME, mount.mountName()));
        }
        if (state instanceof ResourceState.Ready && linked(run.spec().volume())) {
            List<String> links = record.resources().list(RunResources.LUSTRE_ASSOCIATIONS);
            if (links.isEmpty()) {
                links = volumes.get().linkToS3(run.names(), run.spec().volume(), fileSystem);
                List<String> made = links;
                store.update(run.runId(), r -> r.withResource(RunResources.LUSTRE_ASSOCIATIONS, made));
            }
            state = volumes.get().associationsState(links);
        }
        return ResourceWait.look(state, what, CheckVolumeStep.WAIT_SECONDS);
    }

    /** A file system the run creates with S3 paths (an adopted one is used as its owner linked it). */
    private static boolean linked(VolumeSpec volume) {
        return volume.fileSystemId() == null && (volume.s3ImportPath() != null || volume.s3ExportPath() != null);
    }
}
