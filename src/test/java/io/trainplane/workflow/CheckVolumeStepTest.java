package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.efs.EfsVolumes;
import io.trainplane.aws.efs.MountTargetSecurityGroups;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.local.sim.SimulatedEfs;
import io.trainplane.local.sim.SimulatedNetwork;
import io.trainplane.runs.RunResources;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.efs.EfsClient;
import software.amazon.awssdk.services.efs.model.DescribeFileSystemsRequest;
import software.amazon.awssdk.services.efs.model.DescribeFileSystemsResponse;
import software.amazon.awssdk.services.efs.model.FileSystemDescription;
import software.amazon.awssdk.services.efs.model.LifeCycleState;

/**
 * CheckVolume's looks at the run's EFS file system on the simulated account: the file system
 * waited for (EKS not asked meanwhile), then a mount target in each of the stack's subnets,
 * guarded by the cluster's group, waited for; a mount target without that group gets it, and the
 * record says so first. A file system in error (an EFS answer built by hand) or deleted by hand
 * ends the run.
 */
class CheckVolumeStepTest {
    final StartedRun run = new StartedRun("check-volume");

    @AfterEach
    void close() {
        run.close();
    }

    Supplier<EfsVolumes> volumes() {
        return () -> new EfsVolumes(run.cloud.efs());
    }

    CheckVolumeStep step() {
        return new CheckVolumeStep(
                run.store,
                volumes(),
                () -> new MountTargetSecurityGroups(run.cloud.efs()),
                run.eksClusters(),
                run.settings.network());
    }

    String createVolume() {
        new CreateVolumeStep(run.store, volumes(), run.settings).run(run.state);
        return run.record().resources().get(RunResources.FILE_SYSTEM).orElseThrow();
    }

    String clusterGroup() {
        return run.cloud
                .eks()
                .describeCluster(r -> r.name(run.names().clusterName()))
                .cluster()
                .resourcesVpcConfig()
                .clusterSecurityGroupId();
    }

    List<List<String>> groupsOfEachMountTarget(String fileSystem) {
        return run.cloud.efs().describeMountTargets(r -> r.fileSystemId(fileSystem)).mountTargets().stream()
                .map(mt -> run.cloud
                        .efs()
                        .describeMountTargetSecurityGroups(r -> r.mountTargetId(mt.mountTargetId()))
                        .securityGroups())
                .toList();
    }

    @Test
    void itWaitsForTheFileSystemThenForAMountTargetInEverySubnetGuardedByTheClustersGroup() {
        run.clusterActive();
        String fileSystem = createVolume();

        JsonNode creating = new CheckVolumeStep(
                        run.store,
                        volumes(),
                        StartedRun.notAskedFor("the mount target groups"),
                        StartedRun.notAskedFor("EKS"),
                        run.settings.network())
                .run(run.state);
        assertThat(creating.path("done").asBoolean()).isFalse();
        assertThat(creating.path("waitSeconds").asInt()).isEqualTo(CheckVolumeStep.WAIT_SECONDS);
        assertThat(creating.path("detail").asText()).contains(fileSystem);
        assertThat(run.calls("efs:CreateMountTarget")).isZero();

        run.advance(SimulatedEfs.FILE_SYSTEM_CREATING);
        JsonNode mountTargetsCreating = step().run(run.state);
        assertThat(mountTargetsCreating.path("done").asBoolean()).isFalse();
        assertThat(mountTargetsCreating.path("waitSeconds").asInt()).isEqualTo(CheckVolumeStep.WAIT_SECONDS);
        int subnets = run.settings.network().subnetIds().size();
        assertThat(run.calls("efs:CreateMountTarget")).isEqualTo(subnets);

        run.advance(SimulatedEfs.MOUNT_TARGET_CREATING);
        JsonNode ready = step().run(run.state);
        assertThat(ready.path("done").asBoolean()).isTrue();
        assertThat(ready.path("waitSeconds").asInt()).isZero();
        assertThat(run.calls("efs:CreateMountTarget")).as("made once").isEqualTo(subnets);
        assertThat(groupsOfEachMountTarget(fileSystem)).hasSize(subnets).containsOnly(List.of(clusterGroup()));
        assertThat(run.record().resources().has(RunResources.MOUNT_TARGET_GROUP)
                        || run.record().resources().has(RunResources.MOUNT_TARGETS_OPENED))
                .as("the run opened no mount target it did not make")
                .isFalse();
    }

    @Test
    void aMountTargetWithoutTheClustersGroupGetsItAndTheRecordNamesIt() {
        run.clusterActive();
        String fileSystem = createVolume();
        run.advance(SimulatedEfs.FILE_SYSTEM_CREATING);
        step().run(run.state);
        run.advance(SimulatedEfs.MOUNT_TARGET_CREATING);
        assertThat(step().run(run.state).path("done").asBoolean()).isTrue();
        // One mount target made for another cluster: guarded by another group only.
        String mountTarget = run.cloud
                .efs()
                .describeMountTargets(r -> r.fileSystemId(fileSystem))
                .mountTargets()
                .get(0)
                .mountTargetId();
        run.cloud.efs().modifyMountTargetSecurityGroups(r -> r.mountTargetId(mountTarget)
                .securityGroups(SimulatedNetwork.STACK_DEFAULT_GROUP));

        JsonNode look = step().run(run.state);

        assertThat(look.path("done").asBoolean()).isTrue();
        assertThat(run.cloud
                        .efs()
                        .describeMountTargetSecurityGroups(r -> r.mountTargetId(mountTarget))
                        .securityGroups())
                .containsExactlyInAnyOrder(SimulatedNetwork.STACK_DEFAULT_GROUP, clusterGroup());
        assertThat(run.record().resources().get(RunResources.MOUNT_TARGET_GROUP))
                .contains(clusterGroup());
        assertThat(run.record().resources().list(RunResources.MOUNT_TARGETS_OPENED))
                .containsExactly(mountTarget);
    }

    @Test
    void aFileSystemInErrorEndsTheRun() {
        String fileSystem = "fs-0123456789abcdef0";
        run.store.update(run.runId, r -> r.withResource(RunResources.FILE_SYSTEM, fileSystem));
        EfsClient efs = new OneFileSystemEfs(FileSystemDescription.builder()
                .fileSystemId(fileSystem)
                .lifeCycleState(LifeCycleState.ERROR)
                .build());

        CheckVolumeStep step = new CheckVolumeStep(
                run.store,
                () -> new EfsVolumes(efs),
                StartedRun.notAskedFor("the mount target groups"),
                StartedRun.notAskedFor("EKS"),
                run.settings.network());

        assertThatThrownBy(() -> step.run(run.state))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.ResourceFailed))
                .hasMessageContaining("EFS file system " + fileSystem + " failed")
                .hasMessageContaining("is in state error");
    }

    @Test
    void aFileSystemDeletedByHandEndsTheRun() {
        String fileSystem = createVolume();
        run.advance(SimulatedEfs.FILE_SYSTEM_CREATING);
        run.cloud.efs().deleteFileSystem(r -> r.fileSystemId(fileSystem));

        assertThatThrownBy(() -> step().run(run.state))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.ResourceDeleted))
                .hasMessageContaining(fileSystem);

        run.advance(SimulatedEfs.DELETING);
        assertThatThrownBy(() -> step().run(run.state))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.ResourceGone))
                .hasMessageContaining("was it deleted by hand?");
    }

    /** EFS answering DescribeFileSystems with one file system, as built; every other call is unsupported. */
    record OneFileSystemEfs(FileSystemDescription fileSystem) implements EfsClient {
        @Override
        public DescribeFileSystemsResponse describeFileSystems(DescribeFileSystemsRequest request) {
            assertThat(request.fileSystemId()).isEqualTo(fileSystem.fileSystemId());
            return DescribeFileSystemsResponse.builder().fileSystems(fileSystem).build();
        }

        @Override
        public String serviceName() {
            return SERVICE_NAME;
        }

        @Override
        public void close() {}
    }
}
