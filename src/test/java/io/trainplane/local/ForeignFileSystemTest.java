package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.TestTime;
import io.trainplane.spec.Names;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.efs.model.Tag;

/**
 * A file system made with the run's creation token by someone else (a run of another stack in the
 * account, under the same runId) is not the run's: EFS answers the run's create with it, and the run
 * stops there, neither using nor deleting it.
 */
class ForeignFileSystemTest {
    @Test
    void aFileSystemWithTheRunsCreationTokenButAnotherStacksTagsIsNeitherUsedNorDeleted() throws IOException {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            String foreign = cloud.efs()
                    .createFileSystem(r -> r.creationToken(new Names("quickstart").efsCreationToken())
                            .encrypted(true)
                            .tags(
                                    Tag.builder()
                                            .key("trainplane:stack")
                                            .value("another-team")
                                            .build(),
                                    Tag.builder()
                                            .key("trainplane:run-id")
                                            .value("quickstart")
                                            .build()))
                    .fileSystemId();

            RunReport r = new LocalRun(cloud, Faults.none(), e -> {})
                    .execute(RunSpecs.normalize(Files.readString(Path.of("examples/quickstart.json"))), "quickstart");

            assertThat(r.status()).isEqualTo("FAILED");
            assertThat(r.error()).isEqualTo("FileSystemNotTheRuns");
            assertThat(r.cause()).contains(foreign, "trainplane:stack=another-team", "neither uses nor deletes it");
            assertThat(r.calls()).doesNotContainKey("efs:DeleteFileSystem").doesNotContainKey("efs:CreateMountTarget");
            assertThat(cloud.efs()
                            .describeFileSystems(d -> d.fileSystemId(foreign))
                            .fileSystems())
                    .hasSize(1);
            // Only the foreign file system, which carries the same run id, is left: nothing the run made.
            assertThat(r.resources().remaining()).allMatch(left -> left.equals("efs:file-system/" + foreign));
        }
    }
}
