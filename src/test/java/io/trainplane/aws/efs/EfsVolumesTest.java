package io.trainplane.aws.efs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.aws.Deletion;
import io.trainplane.aws.ResourceState;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.core.TransientException;
import io.trainplane.spec.Names;
import io.trainplane.workflow.Failures;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.efs.model.FileSystemLimitExceededException;
import software.amazon.awssdk.services.efs.model.InternalServerErrorException;
import software.amazon.awssdk.services.efs.model.LifeCycleState;
import software.amazon.awssdk.services.efs.model.MountTargetConflictException;
import software.amazon.awssdk.services.efs.model.MountTargetNotFoundException;
import software.amazon.awssdk.services.efs.model.NetworkInterfaceLimitExceededException;
import software.amazon.awssdk.services.efs.model.NoFreeAddressesInSubnetException;
import software.amazon.awssdk.services.efs.model.ThrottlingException;

/** EfsVolumes against {@link ScriptedEfs}: the lifecycles and errors of real EFS that moto lacks. */
class EfsVolumesTest {
    final ScriptedEfs efs = new ScriptedEfs();
    final EfsVolumes volumes = new EfsVolumes(efs);
    final Names names = new Names("run-1");
    static final List<String> SUBNETS = List.of("subnet-a", "subnet-b");
    static final List<String> GROUPS = List.of("sg-1");

    @Test
    void aSecondCreateAdoptsTheIdThatFileSystemAlreadyExistsCarries() {
        String id = volumes.createFileSystem(names, EfsRequestsTest.tags(names));

        assertThat(volumes.createFileSystem(names, EfsRequestsTest.tags(names))).isEqualTo(id);
        // The one found is checked to carry the run's tags.
        assertThat(efs.calls).containsExactly("CreateFileSystem", "CreateFileSystem", "DescribeFileSystems");
    }

    @Test
    void aFileSystemWithTheRunsTokenButAnotherStacksTagsIsNotTheRuns() {
        String theirs = volumes.createFileSystem(names, new io.trainplane.aws.RunTags("another-stack", "run-1"));

        assertThatThrownBy(() -> volumes.createFileSystem(names, EfsRequestsTest.tags(names)))
                .isInstanceOf(io.trainplane.core.TerminalException.class)
                .hasMessageContaining(theirs)
                .hasMessageContaining("trainplane:stack=another-stack");
    }

    @Test
    void theFileSystemIsCreatingThenReady() {
        String id = volumes.createFileSystem(names, EfsRequestsTest.tags(names));
        assertThat(volumes.fileSystemState(id)).isInstanceOf(ResourceState.Creating.class);

        efs.settle();

        assertThat(volumes.fileSystemState(id)).isEqualTo(new ResourceState.Ready());
    }

    @Test
    void everyLifecycleStateMapsToOneResourceState() {
        assertThat(EfsVolumes.fileSystemState(LifeCycleState.CREATING, "fs-1"))
                .isEqualTo(new ResourceState.Creating("file system fs-1 is being created"));
        assertThat(EfsVolumes.fileSystemState(LifeCycleState.AVAILABLE, "fs-1")).isEqualTo(new ResourceState.Ready());
        assertThat(EfsVolumes.fileSystemState(LifeCycleState.UPDATING, "fs-1")).isEqualTo(new ResourceState.Ready());
        assertThat(EfsVolumes.fileSystemState(LifeCycleState.ERROR, "fs-1"))
                .isEqualTo(new ResourceState.Failed("file system fs-1 is in state error"));
        assertThat(EfsVolumes.fileSystemState(LifeCycleState.DELETING, "fs-1")).isEqualTo(new ResourceState.Deleting());
        assertThat(EfsVolumes.fileSystemState(LifeCycleState.DELETED, "fs-1")).isEqualTo(new ResourceState.Gone());
        assertThat(EfsVolumes.fileSystemState(LifeCycleState.UNKNOWN_TO_SDK_VERSION, "fs-1"))
                .isInstanceOf(ResourceState.Creating.class);
    }

    @Test
    void mountTargetsWaitForAnAvailableFileSystem() {
        String id = volumes.createFileSystem(names, EfsRequestsTest.tags(names));

        assertThatThrownBy(() -> volumes.ensureMountTargets(id, SUBNETS, GROUPS))
                .isInstanceOf(TransientException.class)
                .hasMessageContaining("file system not available yet");
    }

    @Test
    void mountTargetsAreCreatingThenReadyAndNotMadeTwice() {
        String id = volumes.createFileSystem(names, EfsRequestsTest.tags(names));
        efs.settle();

        List<String> ids = volumes.ensureMountTargets(id, SUBNETS, GROUPS);
        assertThat(volumes.mountTargetsState(id))
                .isEqualTo(new ResourceState.Creating("0 of 2 mount targets available"));
        efs.calls.clear();
        assertThat(volumes.ensureMountTargets(id, SUBNETS, GROUPS)).isEqualTo(ids);
        assertThat(efs.calls).doesNotContain("CreateMountTarget");

        efs.settle();
        assertThat(volumes.mountTargetsState(id)).isEqualTo(new ResourceState.Ready());
    }

    @Test
    void everyPageOfMountTargetsIsRead() {
        String id = efs.fileSystem("other", LifeCycleState.AVAILABLE);
        efs.mountTarget(id, "subnet-a", LifeCycleState.AVAILABLE);
        efs.mountTarget(id, "subnet-b", LifeCycleState.AVAILABLE);
        efs.mountTarget(id, "subnet-c", LifeCycleState.AVAILABLE);

        assertThat(volumes.ensureMountTargets(id, List.of("subnet-a", "subnet-b", "subnet-c"), GROUPS))
                .hasSize(3);
        assertThat(efs.calls).containsExactly("DescribeMountTargets", "DescribeMountTargets", "DescribeMountTargets");
    }

    @Test
    void aMountTargetInErrorFailsTheVolume() {
        String id = efs.fileSystem("other", LifeCycleState.AVAILABLE);
        efs.mountTarget(id, "subnet-a", LifeCycleState.AVAILABLE);
        String broken = efs.mountTarget(id, "subnet-b", LifeCycleState.ERROR);

        assertThat(volumes.mountTargetsState(id))
                .isEqualTo(
                        new ResourceState.Failed("mount target " + broken + " in subnet subnet-b is in state error"));
    }

    @Test
    void aZoneThatAlreadyHasAMountTargetIsNotAnError() {
        String id = efs.fileSystem("other", LifeCycleState.AVAILABLE);
        String existing = efs.mountTarget(id, "subnet-a", LifeCycleState.AVAILABLE);
        efs.failNext(
                "CreateMountTarget",
                MountTargetConflictException.builder()
                        .message("mount target already exists in this AZ")
                        .build());

        assertThat(volumes.ensureMountTargets(id, List.of("subnet-a", "subnet-a2"), GROUPS))
                .containsExactly(existing);
    }

    @Test
    void subnetsOfAnotherVpcAreTerminal() {
        String id = efs.fileSystem("other", LifeCycleState.AVAILABLE);
        efs.failNext(
                "CreateMountTarget",
                MountTargetConflictException.builder()
                        .message(
                                "requested subnet for new mount target is not in the same VPC as existing mount targets")
                        .build());

        assertThatThrownBy(() -> volumes.ensureMountTargets(id, SUBNETS, GROUPS))
                .isInstanceOfSatisfying(TerminalException.class, e -> assertThat(e.reason())
                        .isEqualTo(FailureReason.MountTargetConflict));
    }

    @Test
    void quotasAndFullSubnetsAreTerminalWithWhatToDo() {
        efs.failNext(
                "CreateFileSystem",
                FileSystemLimitExceededException.builder().message("limit").build());
        assertThatThrownBy(() -> volumes.createFileSystem(names, EfsRequestsTest.tags(names)))
                .isInstanceOfSatisfying(TerminalException.class, e -> {
                    assertThat(e.reason()).isEqualTo(FailureReason.FileSystemLimitExceeded);
                    assertThat(e.getMessage()).contains("quota", "volume.fileSystemId");
                    assertThat(e.getCause()).isInstanceOf(FileSystemLimitExceededException.class);
                });

        String id = efs.fileSystem("other", LifeCycleState.AVAILABLE);
        efs.failNext(
                "CreateMountTarget",
                NetworkInterfaceLimitExceededException.builder().message("enis").build());
        assertThatThrownBy(() -> volumes.ensureMountTargets(id, SUBNETS, GROUPS))
                .isInstanceOfSatisfying(TerminalException.class, e -> {
                    assertThat(e.reason()).isEqualTo(FailureReason.NetworkInterfaceLimitExceeded);
                    assertThat(e.getMessage()).contains("subnet-a", "network interfaces");
                });
        efs.failNext(
                "CreateMountTarget",
                NoFreeAddressesInSubnetException.builder().message("full").build());
        assertThatThrownBy(() -> volumes.ensureMountTargets(id, SUBNETS, GROUPS))
                .isInstanceOfSatisfying(TerminalException.class, e -> assertThat(e.reason())
                        .isEqualTo(FailureReason.NoFreeAddressesInSubnet));
        assertThatThrownBy(() -> volumes.ensureMountTargets(id, List.of(), GROUPS))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.NoSubnets));
    }

    @Test
    void throttlingAndServerErrorsPassThroughForTheRetryPolicy() {
        ThrottlingException throttled = ThrottlingException.builder()
                .statusCode(429)
                .message("slow down")
                .awsErrorDetails(AwsErrorDetails.builder()
                        .errorCode("ThrottlingException")
                        .build())
                .build();
        efs.failNext("CreateFileSystem", throttled);
        assertThatThrownBy(() -> volumes.createFileSystem(names, EfsRequestsTest.tags(names)))
                .isSameAs(throttled);
        assertThat(Failures.classify(throttled)).isInstanceOf(TransientException.class);

        InternalServerErrorException internal = InternalServerErrorException.builder()
                .statusCode(500)
                .message("oops")
                .build();
        efs.failNext("DescribeMountTargets", internal);
        assertThatThrownBy(() -> volumes.mountTargetsState("fs-1")).isSameAs(internal);
        assertThat(Failures.classify(internal)).isInstanceOf(TransientException.class);
    }

    @Test
    void deletionWaitsForMountTargetsAndEndsGone() {
        String id = volumes.createFileSystem(names, EfsRequestsTest.tags(names));
        assertThat(volumes.deleteFileSystem(id)).isInstanceOf(Deletion.Blocked.class); // still creating
        efs.settle();
        volumes.ensureMountTargets(id, SUBNETS, GROUPS);
        efs.settle();

        assertThat(volumes.deleteFileSystem(id))
                .isEqualTo(new Deletion.Blocked("file system " + id + " still has mount targets: delete them first"));
        assertThat(volumes.deleteMountTargets(id)).isEqualTo(new Deletion.Deleting());
        efs.calls.clear();
        assertThat(volumes.deleteMountTargets(id)).isEqualTo(new Deletion.Deleting());
        assertThat(efs.calls).doesNotContain("DeleteMountTarget"); // already deleting
        efs.settle();
        assertThat(volumes.deleteMountTargets(id)).isEqualTo(new Deletion.Gone());

        assertThat(volumes.deleteFileSystem(id)).isEqualTo(new Deletion.Deleting());
        efs.calls.clear();
        assertThat(volumes.deleteFileSystem(id)).isEqualTo(new Deletion.Deleting());
        assertThat(efs.calls).containsExactly("DescribeFileSystems");
        efs.settle();
        assertThat(volumes.deleteFileSystem(id)).isEqualTo(new Deletion.Gone());
        assertThat(volumes.fileSystemState(id)).isEqualTo(new ResourceState.Gone());
    }

    @Test
    void aMountTargetDeletedMeanwhileCountsAsDeleted() {
        String id = efs.fileSystem("other", LifeCycleState.AVAILABLE);
        efs.mountTarget(id, "subnet-a", LifeCycleState.AVAILABLE);
        efs.failNext(
                "DeleteMountTarget",
                MountTargetNotFoundException.builder().message("gone").build());

        assertThat(volumes.deleteMountTargets(id)).isEqualTo(new Deletion.Deleting());
    }

    @Test
    void onlyAnAvailableFileSystemCanBeAdopted() {
        String creating = efs.fileSystem("other", LifeCycleState.CREATING);
        assertThatThrownBy(() -> volumes.adoptable(creating)).isInstanceOfSatisfying(TerminalException.class, e -> {
            assertThat(e.reason()).isEqualTo(FailureReason.FileSystemNotAvailable);
            assertThat(e.getMessage()).contains(creating, "creating");
        });
        String ready = efs.fileSystem("ready", LifeCycleState.AVAILABLE);
        assertThat(volumes.adoptable(ready)).isNotNull();
    }
}
