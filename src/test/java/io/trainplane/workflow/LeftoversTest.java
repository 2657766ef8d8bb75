package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.core.Json;
import io.trainplane.runs.CleanupFailure;
import io.trainplane.runs.Leftover;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the record says a run left, and what the error says removes it. */
class LeftoversTest {
    static RunRecord run(boolean keepCluster) throws IOException {
        var spec = (com.fasterxml.jackson.databind.node.ObjectNode)
                Json.read(Files.readString(Path.of("examples/quickstart.json")));
        ((com.fasterxml.jackson.databind.node.ObjectNode) spec.get("cleanup")).put("keepCluster", keepCluster);
        return RunRecord.newRun("quickstart", Json.write(RunSpecs.normalize(Json.write(spec))), null, Instant.EPOCH)
                .withResource(RunResources.KUBERNETES_CLUSTER, "tp-quickstart-eks")
                .withResource(RunResources.NAMESPACE, "tp-quickstart")
                .withResource(RunResources.EKS_CLUSTER, "tp-quickstart-eks")
                .withResource(RunResources.NODE_GROUP, "tp-quickstart-nodes")
                .withResource(RunResources.LAUNCH_TEMPLATE, "request-1")
                .withResource(RunResources.FILE_SYSTEM_TOKEN, "tp-quickstart-efs");
    }

    @Test
    void theRecordNamesWhatIsLeftAsTheInventoryDoesAndLeavesOutWhatTheSpecKeeps() throws IOException {
        assertThat(Leftovers.recorded(run(false)))
                .containsExactly(
                        "cloudcontrol:request/request-1",
                        "efs:creation-token/tp-quickstart-efs",
                        "eks:cluster/tp-quickstart-eks",
                        "eks:nodegroup/tp-quickstart-eks/tp-quickstart-nodes",
                        "kubernetes:Namespace/tp-quickstart");
        assertThat(Leftovers.recorded(run(true).withResource(RunResources.FILE_SYSTEM, "fs-1")))
                .containsExactly("efs:file-system/fs-1", "kubernetes:Namespace/tp-quickstart");
    }

    @Test
    void aLaunchTemplateOrPlacementGroupThatCloudControlNamedIsNamedByItsIdNotTheRequest() throws IOException {
        RunRecord run = run(false)
                .withResource(RunResources.LAUNCH_TEMPLATE_ID, "lt-1")
                .withResource(RunResources.SYSTEM_LAUNCH_TEMPLATE, "request-2")
                .withResource(RunResources.PLACEMENT_GROUP, "request-3")
                .withResource(RunResources.PLACEMENT_GROUP_NAME, "tp-quickstart-efa");
        assertThat(Leftovers.recorded(run))
                .contains(
                        "ec2:launch-template/lt-1",
                        "cloudcontrol:request/request-2",
                        "ec2:placement-group/tp-quickstart-efa")
                .doesNotContain("cloudcontrol:request/request-1", "cloudcontrol:request/request-3");
    }

    @Test
    void theJanitorRemovesWhatIsLeftOnlyWhenItCanFindTheRun() throws IOException {
        RunRecord run = run(false);
        CleanupFailure withVolume = Leftovers.failure(
                run,
                "CleanupFailed",
                "refused",
                List.of("efs:file-system/fs-1", "kubernetes:Namespace/tp-quickstart"),
                "prod");
        assertThat(withVolume.leftBehind()).extracting(Leftover::removedBy).containsOnly(Leftover.JANITOR);
        assertThat(withVolume.command()).isEqualTo("trainplane cleanup quickstart --stack prod");

        // Objects in an existing cluster: the janitor never looks there.
        CleanupFailure objectsOnly = Leftovers.failure(
                run,
                "CleanupTimedOut",
                null,
                List.of("kubernetes:Namespace/tp-quickstart", "kubernetes:Pod/tp-quickstart/p"),
                null);
        assertThat(objectsOnly.leftBehind()).extracting(Leftover::removedBy).containsOnly(Leftover.COMMAND);
        assertThat(objectsOnly.command()).isEqualTo("trainplane cleanup quickstart --stack <stack>");
        assertThat(objectsOnly.sentence()).contains("Nothing deletes them automatically");
    }
}
