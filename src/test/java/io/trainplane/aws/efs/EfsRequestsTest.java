package io.trainplane.aws.efs;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.aws.RunTags;
import io.trainplane.spec.Names;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.efs.model.CreateFileSystemRequest;
import software.amazon.awssdk.services.efs.model.CreateMountTargetRequest;
import software.amazon.awssdk.services.efs.model.PerformanceMode;
import software.amazon.awssdk.services.efs.model.Tag;
import software.amazon.awssdk.services.efs.model.ThroughputMode;

class EfsRequestsTest {
    final Names names = new Names("cifar10-nightly-001");

    static RunTags tags(Names names) {
        return new RunTags("ml", names.runId());
    }

    @Test
    void theFileSystemIsEncryptedElasticGeneralPurposeAndNamedByTheRun() {
        CreateFileSystemRequest request = EfsRequests.createFileSystem(names, tags(names));

        assertThat(request.creationToken())
                .isEqualTo("tp-cifar10-nightly-001-efs")
                .isEqualTo(names.efsCreationToken());
        assertThat(request.encrypted()).isTrue();
        assertThat(request.performanceMode()).isEqualTo(PerformanceMode.GENERAL_PURPOSE);
        assertThat(request.throughputMode()).isEqualTo(ThroughputMode.ELASTIC);
        assertThat(request.provisionedThroughputInMibps()).isNull();
        assertThat(request.availabilityZoneName()).isNull(); // regional, not One Zone
        assertThat(request.tags())
                .containsExactly(
                        Tag.builder()
                                .key("Name")
                                .value("tp-cifar10-nightly-001-efs")
                                .build(),
                        Tag.builder()
                                .key(Names.RUN_ID_TAG)
                                .value("cifar10-nightly-001")
                                .build(),
                        Tag.builder().key(RunTags.STACK_TAG).value("ml").build());
    }

    @Test
    void theSameRunGivesTheSameRequest() {
        assertThat(EfsRequests.createFileSystem(
                        new Names("cifar10-nightly-001"), new RunTags("ml", "cifar10-nightly-001")))
                .isEqualTo(EfsRequests.createFileSystem(names, tags(names)));
        assertThat(EfsRequests.createFileSystem(new Names("other"), new RunTags("ml", "other"))
                        .creationToken())
                .isNotEqualTo(names.efsCreationToken());
    }

    @Test
    void aMountTargetNamesItsSubnetAndSecurityGroups() {
        CreateMountTargetRequest request = EfsRequests.createMountTarget("fs-1", "subnet-1", List.of("sg-1", "sg-2"));

        assertThat(request.fileSystemId()).isEqualTo("fs-1");
        assertThat(request.subnetId()).isEqualTo("subnet-1");
        assertThat(request.securityGroups()).containsExactly("sg-1", "sg-2");
        assertThat(request.ipAddress()).isNull();
    }

    @Test
    void withoutSecurityGroupsEfsUsesTheVpcDefault() {
        assertThat(EfsRequests.createMountTarget("fs-1", "subnet-1", List.of()).hasSecurityGroups())
                .isFalse();
    }

    @Test
    void lookupsAndDeletesNameWhatTheyConcern() {
        assertThat(EfsRequests.describeFileSystem("fs-1").fileSystemId()).isEqualTo("fs-1");
        assertThat(EfsRequests.describeByCreationToken("t").creationToken()).isEqualTo("t");
        assertThat(EfsRequests.describeMountTargets("fs-1", null).marker()).isNull();
        assertThat(EfsRequests.describeMountTargets("fs-1", "m2").marker()).isEqualTo("m2");
        assertThat(EfsRequests.deleteMountTarget("fsmt-1").mountTargetId()).isEqualTo("fsmt-1");
        assertThat(EfsRequests.deleteFileSystem("fs-1").fileSystemId()).isEqualTo("fs-1");
        assertThat(EfsRequests.describeMountTargetSecurityGroups("fsmt-1").mountTargetId())
                .isEqualTo("fsmt-1");
    }

    @Test
    void aModificationNamesTheWholeSetOfGroups() {
        var request = EfsRequests.modifyMountTargetSecurityGroups("fsmt-1", List.of("sg-1", "sg-2"));
        assertThat(request.mountTargetId()).isEqualTo("fsmt-1");
        assertThat(request.securityGroups()).containsExactly("sg-1", "sg-2");
    }
}
