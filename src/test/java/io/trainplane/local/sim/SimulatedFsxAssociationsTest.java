package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.TestTime;
import io.trainplane.local.asl.SimulatedClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.fsx.model.BadRequestException;
import software.amazon.awssdk.services.fsx.model.DataRepositoryLifecycle;
import software.amazon.awssdk.services.fsx.model.FileSystemType;
import software.amazon.awssdk.services.fsx.model.IncompatibleParameterErrorException;

/** The twin's data repository associations: FSx's rules for linking a Lustre file system to S3. */
class SimulatedFsxAssociationsTest {
    final SimulatedClock clock = new SimulatedClock(TestTime.START);
    final SimulatedFsx fsx = new SimulatedFsx(new CallLog(), clock, new FaultPlan());

    String fileSystem(String deploymentType, String version) {
        String id = fsx.createFileSystem(r -> r.fileSystemType(FileSystemType.LUSTRE)
                        .fileSystemTypeVersion(version)
                        .storageCapacity(1200)
                        .subnetIds(SimulatedNetwork.SUBNET_1A)
                        .lustreConfiguration(l -> l.deploymentType(deploymentType)))
                .fileSystem()
                .fileSystemId();
        clock.advance(SimulatedFsx.FILE_SYSTEM_CREATING);
        return id;
    }

    String link(String fileSystemId, String path, String token) {
        return fsx.createDataRepositoryAssociation(r -> r.fileSystemId(fileSystemId)
                        .clientRequestToken(token)
                        .fileSystemPath(path)
                        .dataRepositoryPath("s3://data-bucket" + path))
                .association()
                .associationId();
    }

    @Test
    void anAssociationIsCreatingThenAvailableAndItsTokenAnswersTheSame() {
        String fs = fileSystem("SCRATCH_2", "2.15");
        String id = link(fs, "/data", "t-import");
        assertThat(link(fs, "/data", "t-import")).isEqualTo(id);
        assertThat(fsx.describeDataRepositoryAssociations(r -> r.associationIds(id))
                        .associations()
                        .getFirst()
                        .lifecycle())
                .isEqualTo(DataRepositoryLifecycle.CREATING);
        clock.advance(SimulatedFsx.ASSOCIATION_CREATING.plus(Duration.ofSeconds(1)));
        assertThat(fsx.describeDataRepositoryAssociations(r -> r.associationIds(id))
                        .associations()
                        .getFirst()
                        .lifecycle())
                .isEqualTo(DataRepositoryLifecycle.AVAILABLE);
    }

    @Test
    void fsxRefusesScratch1Lustre210AndOverlappingPaths() {
        assertThatThrownBy(() -> link(fileSystem("SCRATCH_1", "2.15"), "/data", "a"))
                .isInstanceOf(IncompatibleParameterErrorException.class)
                .hasMessageContaining("SCRATCH_1");
        assertThatThrownBy(() -> link(fileSystem("SCRATCH_2", "2.10"), "/data", "b"))
                .isInstanceOf(IncompatibleParameterErrorException.class)
                .hasMessageContaining("2.12 and 2.15");
        String fs = fileSystem("SCRATCH_2", "2.15");
        link(fs, "/data", "c");
        assertThatThrownBy(() -> link(fs, "/data/more", "d"))
                .isInstanceOf(BadRequestException.class)
                .hasMessageContaining("overlaps");
        assertThat(link(fs, "/model", "e")).startsWith("dra-");
    }
}
