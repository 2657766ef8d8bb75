package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.ClusterNetwork;
import io.trainplane.aws.ResourceState;
import io.trainplane.aws.efs.EfsVolumes;
import io.trainplane.aws.efs.MountTargetSecurityGroups;
import io.trainplane.aws.eks.EksClusters;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.VolumeType;
import java.util.List;
import java.util.function.Supplier;

/**
 * Looks once at the run's EFS volume: first the file system, then a mount target in every
 * Availability Zone of the cluster's subnets, guarded by the cluster's security group (which admits
 * all traffic, NFS included, from the cluster's nodes). Creates the missing mount targets on the
 * way; once all are available, adds the cluster's group to those that lack it — the mount targets
 * of an adopted file system, or of one kept by an earlier run, were made for another cluster.
 */
public final class CheckVolumeStep implements Step {
    static final int WAIT_SECONDS = 15;

    private final RunStore store;
    private final Supplier<EfsVolumes> volumes;
    private final Supplier<MountTargetSecurityGroups> mountTargetGroups;
    private final Supplier<EksClusters> clusters;
    private final ClusterNetwork network;
    private final LustreVolumeSteps lustre;

    /**
     * EFS and EKS as suppliers: their SDK clients are built on first use (a file system still
     * creating needs no EKS). {@code network} holds the subnets that get mount targets.
     */
    public CheckVolumeStep(
            RunStore store,
            Supplier<EfsVolumes> volumes,
            Supplier<MountTargetSecurityGroups> mountTargetGroups,
            Supplier<EksClusters> clusters,
            ClusterNetwork network) {
        this(store, volumes, mountTargetGroups, clusters, network, null);
    }

    /** With FSx for Lustre ({@code volume.type: fsx-lustre}, see LustreVolumeSteps). */
    CheckVolumeStep(
            RunStore store,
            Supplier<EfsVolumes> volumes,
            Supplier<MountTargetSecurityGroups> mountTargetGroups,
            Supplier<EksClusters> clusters,
            ClusterNetwork network,
            LustreVolumeSteps lustre) {
        this.lustre = lustre;
        this.store = store;
        this.volumes = volumes;
        this.mountTargetGroups = mountTargetGroups;
        this.clusters = clusters;
        this.network = network;
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        if (run.spec().volume().type() == VolumeType.FSX_LUSTRE) {
            return lustre.check(run);
        }
        RunRecord record = store.get(run.runId());
        String fileSystem = record.resources().get(RunResources.FILE_SYSTEM).orElse(null);
        String what = "EFS file system " + fileSystem;
        ResourceState state = volumes.get().fileSystemState(fileSystem);
        if (!(state instanceof ResourceState.Ready)) {
            return ResourceWait.look(state, what, WAIT_SECONDS);
        }
        String securityGroup = clusters.get().describe(run.clusterName()).clusterSecurityGroupId();
        volumes.get()
                .ensureMountTargets(
                        fileSystem, network.subnetIds(), securityGroup == null ? List.of() : List.of(securityGroup));
        ResourceState mountTargets = volumes.get().mountTargetsState(fileSystem);
        if (mountTargets instanceof ResourceState.Ready && securityGroup != null) {
            admit(run.runId(), fileSystem, securityGroup); // every mount target is available: each can take the group
        }
        return ResourceWait.look(mountTargets, "the mount targets of " + what, WAIT_SECONDS);
    }

    /**
     * Adds the cluster's group to the mount targets that lack it, keeping their other groups. Which
     * ones is written to the run record before they change, so that teardown takes the group back
     * off exactly those even when this invocation dies halfway; a second look finds nothing to do.
     */
    private void admit(String runId, String fileSystem, String securityGroup) {
        MountTargetSecurityGroups groups = mountTargetGroups.get();
        List<String> lacking = groups.without(fileSystem, securityGroup);
        if (lacking.isEmpty()) {
            return;
        }
        store.update(runId, r -> OpenedMountTargets.add(r, securityGroup, lacking));
        for (String mountTarget : lacking) {
            groups.add(fileSystem, mountTarget, securityGroup);
        }
    }
}
