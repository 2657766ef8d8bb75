package io.trainplane.aws.efs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.aws.ClusterNetwork;
import io.trainplane.aws.Deletion;
import io.trainplane.aws.ResourceState;
import io.trainplane.aws.RunTags;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.spec.Names;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.efs.EfsClient;
import software.amazon.awssdk.services.efs.model.FileSystemDescription;
import software.amazon.awssdk.services.efs.model.Tag;

/** EfsVolumes against moto_server: the real SDK, the real wire protocol, moto's EFS model. */
class EfsMotoTest {
    static MotoEfs moto;
    static EfsClient efs;
    static EfsVolumes volumes;
    static ClusterNetwork network;
    /** A second cluster's security group in the same VPC. */
    static String otherClusterGroup;

    /**
     * Starts the server for the first test; every test is reported skipped, with the reason, when
     * moto_server is missing (an assumption in {@code @BeforeAll} would hide the tests instead).
     */
    @BeforeEach
    void startMoto() throws Exception {
        if (moto != null) {
            return;
        }
        MotoEfs started = MotoEfs.start();
        try {
            String vpc = started.createVpc("10.20.0.0/16");
            network = new ClusterNetwork(
                    List.of(
                            started.createSubnet(vpc, "10.20.1.0/24", "us-east-1a"),
                            started.createSubnet(vpc, "10.20.2.0/24", "us-east-1b")),
                    List.of(started.createSecurityGroup(vpc, "trainplane-efs")));
            otherClusterGroup = started.createSecurityGroup(vpc, "trainplane-next-cluster");
        } catch (RuntimeException e) {
            started.close();
            throw e;
        }
        moto = started;
        efs = moto.efs();
        volumes = new EfsVolumes(efs);
    }

    @AfterAll
    static void stopMoto() {
        if (efs != null) {
            efs.close();
        }
        if (moto != null) {
            moto.close();
        }
    }

    @Test
    void creatingThreeTimesWithTheSameTokenLeavesOneFileSystem() {
        Names names = new Names("efs-idempotent");

        String first = volumes.createFileSystem(names, EfsRequestsTest.tags(names));
        String second = volumes.createFileSystem(names, EfsRequestsTest.tags(names));
        String third = volumes.createFileSystem(names, EfsRequestsTest.tags(names));

        assertThat(second).isEqualTo(first);
        assertThat(third).isEqualTo(first);
        assertThat(efs.describeFileSystems(r -> r.creationToken(names.efsCreationToken()))
                        .fileSystems())
                .extracting(FileSystemDescription::fileSystemId)
                .containsExactly(first);
    }

    @Test
    void theFileSystemIsAvailableEncryptedElasticAndTaggedWithTheRun() {
        Names names = new Names("efs-tags");
        String id = volumes.createFileSystem(names, EfsRequestsTest.tags(names));

        assertThat(volumes.fileSystemState(id)).isEqualTo(new ResourceState.Ready());
        FileSystemDescription fs =
                efs.describeFileSystems(r -> r.fileSystemId(id)).fileSystems().get(0);
        assertThat(fs.encrypted()).isTrue();
        assertThat(fs.performanceModeAsString()).isEqualTo("generalPurpose");
        assertThat(fs.throughputModeAsString()).isEqualTo("elastic");
        assertThat(fs.name()).isEqualTo(names.efsCreationToken());
        Map<String, String> tags = efs.listTagsForResource(r -> r.resourceId(id)).tags().stream()
                .collect(Collectors.toMap(Tag::key, Tag::value));
        assertThat(tags)
                .containsEntry("Name", names.efsCreationToken())
                .containsEntry(Names.RUN_ID_TAG, "efs-tags")
                .containsEntry(RunTags.STACK_TAG, "ml")
                .hasSize(3);
        // What a run deciding on adoption reads of it: its tags.
        assertThat(volumes.adoptable(id)).isEqualTo(tags);
    }

    @Test
    void mountTargetsAreMadeOncePerSubnet() {
        String id = volumes.createFileSystem(new Names("efs-mounts"), new RunTags("ml", "efs-mounts"));

        List<String> first = volumes.ensureMountTargets(id, network);
        List<String> second = volumes.ensureMountTargets(id, network);

        assertThat(first).hasSize(2);
        assertThat(second).containsExactlyInAnyOrderElementsOf(first);
        assertThat(efs.describeMountTargets(r -> r.fileSystemId(id)).mountTargets())
                .extracting(mt -> mt.subnetId())
                .containsExactlyInAnyOrderElementsOf(network.subnetIds());
        assertThat(volumes.mountTargetsState(id)).isEqualTo(new ResourceState.Ready());
    }

    @Test
    void anotherClustersGroupJoinsTheMountTargetsGroupsOnceAndLeavesAgain() {
        String id = volumes.createFileSystem(
                new Names("efs-groups"), new io.trainplane.aws.RunTags("trainplane", "efs-groups"));
        volumes.ensureMountTargets(id, network);
        var groups = new MountTargetSecurityGroups(efs);
        String first = network.securityGroupIds().get(0);

        List<String> lacking = groups.without(id, otherClusterGroup);
        assertThat(lacking).hasSize(2);
        lacking.forEach(mt -> assertThat(groups.add(id, mt, otherClusterGroup)).isTrue());
        assertThat(groups.without(id, otherClusterGroup)).isEmpty();
        lacking.forEach(mt -> assertThat(groups.add(id, mt, otherClusterGroup)).isFalse());
        assertThat(efs.describeMountTargetSecurityGroups(r -> r.mountTargetId(lacking.get(0)))
                        .securityGroups())
                .containsExactlyInAnyOrder(first, otherClusterGroup);

        lacking.forEach(mt -> assertThat(groups.remove(mt, otherClusterGroup)).isTrue());
        assertThat(efs.describeMountTargetSecurityGroups(r -> r.mountTargetId(lacking.get(1)))
                        .securityGroups())
                .containsExactly(first);
    }

    @Test
    void deletingWaitsForTheMountTargetsThenEndsGone() {
        String id = volumes.createFileSystem(new Names("efs-delete"), new RunTags("ml", "efs-delete"));
        volumes.ensureMountTargets(id, network);

        assertThat(volumes.deleteFileSystem(id)).isInstanceOf(Deletion.Blocked.class);
        assertThat(volumes.deleteMountTargets(id)).isEqualTo(new Deletion.Deleting());
        assertThat(volumes.deleteMountTargets(id)).isEqualTo(new Deletion.Gone());
        assertThat(volumes.deleteFileSystem(id)).isEqualTo(new Deletion.Deleting());
        assertThat(volumes.deleteFileSystem(id)).isEqualTo(new Deletion.Gone());
        assertThat(volumes.fileSystemState(id)).isEqualTo(new ResourceState.Gone());
        assertThat(volumes.mountTargetsState(id)).isEqualTo(new ResourceState.Gone());
        assertThat(volumes.deleteMountTargets(id)).isEqualTo(new Deletion.Gone());
    }

    @Test
    void aMissingSubnetOrSecurityGroupIsTerminalAndSaysWhatToCheck() {
        String id = volumes.createFileSystem(new Names("efs-bad-network"), new RunTags("ml", "efs-bad-network"));

        assertThatThrownBy(() -> volumes.ensureMountTargets(id, List.of("subnet-00000000"), network.securityGroupIds()))
                .isInstanceOfSatisfying(TerminalException.class, e -> {
                    assertThat(e.reason()).isEqualTo(FailureReason.SubnetNotFound);
                    assertThat(e.getMessage()).contains("subnet-00000000", "subnet ids the stack was deployed with");
                });
        assertThatThrownBy(() -> volumes.ensureMountTargets(id, network.subnetIds(), List.of("sg-00000000")))
                .isInstanceOfSatisfying(TerminalException.class, e -> assertThat(e.reason())
                        .isEqualTo(FailureReason.SecurityGroupNotFound));
    }

    @Test
    void adoptingAFileSystemThatDoesNotExistIsTerminal() {
        assertThatThrownBy(() -> volumes.adoptable("fs-0123456789abcdef0"))
                .isInstanceOfSatisfying(TerminalException.class, e -> {
                    assertThat(e.reason()).isEqualTo(FailureReason.FileSystemNotFound);
                    assertThat(e.getMessage()).contains("volume.fileSystemId", "fs-0123456789abcdef0");
                });
        assertThat(volumes.fileSystemState("fs-0123456789abcdef0")).isEqualTo(new ResourceState.Gone());
        assertThat(volumes.deleteFileSystem("fs-0123456789abcdef0")).isEqualTo(new Deletion.Gone());
    }
}
