package io.trainplane.local.sim;

import static io.trainplane.local.sim.SimulatedNetwork.SUBNET_1A;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.efs.model.BadRequestException;
import software.amazon.awssdk.services.efs.model.CreateFileSystemRequest;
import software.amazon.awssdk.services.efs.model.FileSystemAlreadyExistsException;
import software.amazon.awssdk.services.efs.model.FileSystemDescription;
import software.amazon.awssdk.services.efs.model.FileSystemInUseException;
import software.amazon.awssdk.services.efs.model.FileSystemNotFoundException;
import software.amazon.awssdk.services.efs.model.IncorrectFileSystemLifeCycleStateException;
import software.amazon.awssdk.services.efs.model.LifeCycleState;
import software.amazon.awssdk.services.efs.model.MountTargetNotFoundException;
import software.amazon.awssdk.services.efs.model.Tag;
import software.amazon.awssdk.services.efs.model.ThroughputMode;

class SimulatedEfsTest {
    final SimAccount sim = new SimAccount();

    static CreateFileSystemRequest fileSystem(String token, String runId) {
        return CreateFileSystemRequest.builder()
                .creationToken(token)
                .encrypted(true)
                .throughputMode(ThroughputMode.ELASTIC)
                .tags(
                        Tag.builder().key("Name").value("tp-" + runId).build(),
                        Tag.builder().key("trainplane:run-id").value(runId).build())
                .build();
    }

    FileSystemDescription describe(String id) {
        return sim.efs
                .describeFileSystems(r -> r.fileSystemId(id))
                .fileSystems()
                .get(0);
    }

    String availableFileSystem(String runId) {
        String id =
                sim.efs.createFileSystem(fileSystem("token-" + runId, runId)).fileSystemId();
        sim.advance(SimulatedEfs.FILE_SYSTEM_CREATING);
        return id;
    }

    @Test
    void fileSystemIsCreatingForThirtySecondsThenAvailableAsAsked() {
        var created = sim.efs.createFileSystem(fileSystem("token-1", "run-1"));
        assertThat(created.lifeCycleState()).isEqualTo(LifeCycleState.CREATING);
        assertThat(created.fileSystemId()).matches("fs-[0-9a-f]{17}");

        sim.at(Duration.ofSeconds(29));
        assertThat(describe(created.fileSystemId()).lifeCycleState()).isEqualTo(LifeCycleState.CREATING);
        sim.at(Duration.ofSeconds(30));
        FileSystemDescription fs = describe(created.fileSystemId());
        assertThat(fs.lifeCycleState()).isEqualTo(LifeCycleState.AVAILABLE);
        assertThat(fs.encrypted()).isTrue();
        assertThat(fs.kmsKeyId()).startsWith("arn:aws:kms:us-east-1:000000000000:key/");
        assertThat(fs.throughputMode()).isEqualTo(ThroughputMode.ELASTIC);
        assertThat(fs.name()).isEqualTo("tp-run-1");
        assertThat(fs.creationToken()).isEqualTo("token-1");
        assertThat(fs.tags())
                .contains(Tag.builder().key("trainplane:run-id").value("run-1").build());
    }

    @Test
    void oneCreationTokenMakesOneFileSystemAndRetriesLearnItsId() {
        String id = sim.efs.createFileSystem(fileSystem("token-1", "run-1")).fileSystemId();
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> sim.efs.createFileSystem(fileSystem("token-1", "run-1")))
                    .isInstanceOf(FileSystemAlreadyExistsException.class)
                    .satisfies(e -> {
                        var exists = (FileSystemAlreadyExistsException) e;
                        assertThat(exists.fileSystemId()).isEqualTo(id);
                        assertThat(exists.errorCode()).isEqualTo("FileSystemAlreadyExists");
                        assertThat(exists.statusCode()).isEqualTo(409);
                    });
        }
        // Different parameters under the same token: the same answer, never a second file system.
        assertThatThrownBy(() -> sim.efs.createFileSystem(fileSystem("token-1", "run-2")))
                .isInstanceOf(FileSystemAlreadyExistsException.class);
        assertThat(sim.efs.describeFileSystems(r -> {}).fileSystems())
                .extracting(FileSystemDescription::fileSystemId)
                .containsExactly(id);
        assertThat(sim.efs.describeFileSystems(r -> r.creationToken("token-1")).fileSystems())
                .hasSize(1);
        assertThat(sim.efs.describeFileSystems(r -> r.creationToken("other")).fileSystems())
                .isEmpty();
        assertThat(sim.count("efs:CreateFileSystem")).isEqualTo(4);
    }

    @Test
    void mountTargetNeedsAnAvailableFileSystemAndTakesNinetySeconds() {
        String id = sim.efs.createFileSystem(fileSystem("t", "run-1")).fileSystemId();
        assertThatThrownBy(
                        () -> sim.efs.createMountTarget(r -> r.fileSystemId(id).subnetId(SUBNET_1A)))
                .isInstanceOf(IncorrectFileSystemLifeCycleStateException.class)
                .satisfies(e -> assertThat(((IncorrectFileSystemLifeCycleStateException) e).errorCode())
                        .isEqualTo("IncorrectFileSystemLifeCycleState"));
        assertThatThrownBy(() ->
                        sim.efs.createMountTarget(r -> r.fileSystemId("fs-0000").subnetId(SUBNET_1A)))
                .isInstanceOf(FileSystemNotFoundException.class);

        sim.advance(SimulatedEfs.FILE_SYSTEM_CREATING);
        sim.network.addSecurityGroup("sg-0f5a1e2b3c4d5e6f7", SimulatedNetwork.STACK_VPC);
        var mt = sim.efs.createMountTarget(
                r -> r.fileSystemId(id).subnetId(SUBNET_1A).securityGroups("sg-0f5a1e2b3c4d5e6f7"));
        assertThat(mt.lifeCycleState()).isEqualTo(LifeCycleState.CREATING);
        assertThat(mt.mountTargetId()).matches("fsmt-[0-9a-f]{17}");
        sim.advance(SimulatedEfs.MOUNT_TARGET_CREATING.minusSeconds(1));
        assertThat(sim.efs
                        .describeMountTargets(r -> r.fileSystemId(id))
                        .mountTargets()
                        .get(0)
                        .lifeCycleState())
                .isEqualTo(LifeCycleState.CREATING);
        sim.advance(Duration.ofSeconds(1));
        assertThat(sim.efs
                        .describeMountTargets(r -> r.mountTargetId(mt.mountTargetId()))
                        .mountTargets()
                        .get(0)
                        .lifeCycleState())
                .isEqualTo(LifeCycleState.AVAILABLE);
        assertThat(describe(id).numberOfMountTargets()).isEqualTo(1);
    }

    @Test
    void fileSystemIsInUseUntilItsMountTargetsAreGone() {
        String id = availableFileSystem("run-1");
        String mt = sim.efs
                .createMountTarget(r -> r.fileSystemId(id).subnetId(SUBNET_1A))
                .mountTargetId();
        sim.advance(SimulatedEfs.MOUNT_TARGET_CREATING);

        assertThatThrownBy(() -> sim.efs.deleteFileSystem(r -> r.fileSystemId(id)))
                .isInstanceOf(FileSystemInUseException.class)
                .satisfies(e ->
                        assertThat(((FileSystemInUseException) e).errorCode()).isEqualTo("FileSystemInUse"));
        sim.efs.deleteMountTarget(r -> r.mountTargetId(mt));
        assertThat(sim.efs
                        .describeMountTargets(r -> r.mountTargetId(mt))
                        .mountTargets()
                        .get(0)
                        .lifeCycleState())
                .isEqualTo(LifeCycleState.DELETING);
        sim.advance(SimulatedEfs.DELETING.minusSeconds(1));
        assertThatThrownBy(() -> sim.efs.deleteFileSystem(r -> r.fileSystemId(id)))
                .isInstanceOf(FileSystemInUseException.class);
        sim.advance(Duration.ofSeconds(1));
        assertThatThrownBy(() -> sim.efs.describeMountTargets(r -> r.mountTargetId(mt)))
                .isInstanceOf(MountTargetNotFoundException.class);

        sim.efs.deleteFileSystem(r -> r.fileSystemId(id));
        assertThat(describe(id).lifeCycleState()).isEqualTo(LifeCycleState.DELETING);
        sim.advance(SimulatedEfs.DELETING);
        assertThatThrownBy(() -> describe(id))
                .isInstanceOf(FileSystemNotFoundException.class)
                .hasMessageStartingWith("File system '" + id + "' does not exist.");
        assertThat(sim.efs.resources()).isEmpty();
    }

    @Test
    void unknownIdsAreNotFoundAndAListingNeedsAFilter() {
        assertThatThrownBy(() -> sim.efs.deleteFileSystem(r -> r.fileSystemId("fs-0123")))
                .isInstanceOf(FileSystemNotFoundException.class)
                .satisfies(e -> assertThat(((FileSystemNotFoundException) e).statusCode())
                        .isEqualTo(404));
        assertThatThrownBy(() -> sim.efs.deleteMountTarget(r -> r.mountTargetId("fsmt-0123")))
                .isInstanceOf(MountTargetNotFoundException.class);
        assertThatThrownBy(() -> sim.efs.describeMountTargets(r -> r.fileSystemId("fs-0123")))
                .isInstanceOf(FileSystemNotFoundException.class);
        assertThatThrownBy(() -> sim.efs.describeMountTargets(r -> {})).isInstanceOf(BadRequestException.class);
    }

    @Test
    void tagsAreKeptAndMountTargetsInheritTheirFileSystemsForTheInventory() {
        String id = availableFileSystem("run-1");
        String mt = sim.efs
                .createMountTarget(r -> r.fileSystemId(id).subnetId(SUBNET_1A))
                .mountTargetId();
        sim.efs.tagResource(
                r -> r.resourceId(id).tags(Tag.builder().key("team").value("ml").build()));
        assertThat(sim.efs.listTagsForResource(r -> r.resourceId(id)).tags())
                .extracting(Tag::key)
                .containsExactly("Name", "team", "trainplane:run-id");
        sim.efs.untagResource(r -> r.resourceId(id).tagKeys("team"));
        assertThat(sim.efs.listTagsForResource(r -> r.resourceId(id)).tags())
                .extracting(Tag::key)
                .doesNotContain("team");
        assertThatThrownBy(() -> sim.efs.tagResource(r ->
                        r.resourceId(mt).tags(Tag.builder().key("a").value("b").build())))
                .isInstanceOf(BadRequestException.class);

        String other = sim.efs.createFileSystem(fileSystem("token-x", "run-2")).fileSystemId();
        assertThat(sim.efs.runResources("run-1")).containsExactly("efs:file-system/" + id, "efs:mount-target/" + mt);
        assertThat(sim.efs.runResources("run-2")).containsExactly("efs:file-system/" + other);
        assertThat(sim.efs.runResources()).hasSize(3);
    }
}
