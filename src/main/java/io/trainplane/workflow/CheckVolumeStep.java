package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.clients.Clients;
import io.trainplane.aws.ResourceState;
import io.trainplane.aws.efs.MountTargetSecurityGroups;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import java.util.List;

/**
 * Looks once at the run's EFS volume: first the file system, then a mount target in every
 * Availability Zone of the cluster's subnets, guarded by the cluster's security group (which admits
 * all traffic, NFS included, from the cluster's nodes). Creates the missing mount targets on the
 * way; once all are available, adds the cluster's group to those that lack it — the mount targets
 * of an adopted file system, or of one kept by an earlier run, were made for another cluster.
 */
public final class CheckVolumeStep implements Step {
    static final int WAIT_SECONDS = 15;

    private final Services services;
    private final Infrastructure infrastructure;

    public CheckVolumeStep(Clients clients) {
        this.services = Services.of(clients);
        this.infrastructure = Infrastructure.of(clients);
    }

    /** The EFS and EKS clients, as every invocation uses them. */
    @Override
    public void prime(RunContext sample, Clients offline) {
        offline.efs().describeFileSystems(r -> r.creationToken(sample.names().efsCreationToken()));
        offline.eks().describeCluster(r -> r.name(sample.clusterName()));
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        RunRecord record = services.store().get(run.runId());
        String fileSystem = record.resources().get(RunResources.FILE_SYSTEM).orElse(null);
        String what = "EFS file system " + fileSystem;
        ResourceState state = infrastructure.volumes().fileSystemState(fileSystem);
        if (!(state instanceof ResourceState.Ready)) {
            return ResourceWait.look(state, what, WAIT_SECONDS);
        }
        String securityGroup = infrastructure.clusters().describe(run.clusterName()).clusterSecurityGroupId();
        infrastructure.volumes().ensureMountTargets(fileSystem, infrastructure.settings().network().subnetIds(),
                securityGroup == null ? List.of() : List.of(securityGroup));
        ResourceState mountTargets = infrastructure.volumes().mountTargetsState(fileSystem);
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
        MountTargetSecurityGroups groups = infrastructure.mountTargetGroups();
        List<String> lacking = groups.without(fileSystem, securityGroup);
        if (lacking.isEmpty()) {
            return;
        }
        services.store().update(runId, r -> OpenedMountTargets.add(r, securityGroup, lacking));
        for (String mountTarget : lacking) {
            groups.add(fileSystem, mountTarget, securityGroup);
        }
    }
}
