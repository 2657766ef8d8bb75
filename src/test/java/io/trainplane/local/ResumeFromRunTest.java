package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.local.sim.ClusterFault;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.RunSpecs;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A run starts from another run's checkpoint (training.resumeFrom) on the same cloud: the simulated
 * S3 keeps the first run's outputs, the second run's data pod fetches the checkpoint as the run's
 * pod identity and the training runs only the epochs left; a checkpoint that is not there fails
 * the run at the data step, leaving nothing behind.
 */
class ResumeFromRunTest {
    static final String BUCKET = RunOutputsTest.BUCKET;

    @Test
    void aSecondRunResumesFromTheFirstRunsCheckpointAndTrainsOnlyTheEpochsLeft() throws Exception {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunReport first = run(cloud, "resume-first", spec -> spec);
            assertThat(first.status()).as(first.cause()).isEqualTo("SUCCEEDED");
            RunStore store = new RunStore(cloud.clients().dynamoDb(), LocalCloud.tableName(), cloud.clock());
            assertThat(store.get("resume-first").outputs().checkpoint()).isEqualTo("checkpoint-epoch-10.pt");

            RunReport second = run(cloud, "resume-second", spec -> {
                ((ObjectNode) spec.path("training")).put("epochs", 14).put("resumeFrom", "resume-first");
                return spec;
            });

            assertThat(second.status())
                    .as(second.error() + " " + second.cause())
                    .isEqualTo("SUCCEEDED");
            assertThat(second.metrics().get("resumedFromEpoch")).isEqualTo(10.0);
            RunRecord record = store.get("resume-second");
            assertThat(Json.read(record.specJson()).at("/training/resumeFrom").asText())
                    .as("the run's pods read the copy StartRun made in their own prefix")
                    .isEqualTo("s3://" + BUCKET + "/runs/tp-resume-second/resume/checkpoint-epoch-10.pt");
            // 4 epochs left of 14, where the first run trained 10.
            Duration firstTraining = training(cloud, "resume-first");
            Duration secondTraining = training(cloud, "resume-second");
            assertThat(secondTraining).isLessThan(firstTraining);
            assertThat(secondTraining.toSeconds()).isLessThan(firstTraining.toSeconds() * 6 / 10);
            // The fetch read the bucket as the run's pods' role, and the run left nothing.
            assertThat(cloud.calls().counts()).containsKey("s3:GetObject");
            assertThat(second.resources().remaining()).isEmpty();
        }
    }

    @Test
    void aResumedRunThatLosesANodeResumesPastTheFetchedEpoch() throws Exception {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            assertThat(run(cloud, "resume-base", Faults.none(), spec -> spec).status())
                    .isEqualTo("SUCCEEDED");
            RunReport r = run(cloud, "resume-lost", Faults.onCluster(ClusterFault.NODE_LOST), spec -> {
                ((ObjectNode) spec.path("training")).put("epochs", 14).put("resumeFrom", "resume-base");
                return spec;
            });

            assertThat(r.status()).as(r.error() + " " + r.cause()).isEqualTo("SUCCEEDED");
            assertThat(r.metrics().get("restarts")).isEqualTo(1.0);
            assertThat(r.metrics().get("resumedFromEpoch")).isBetween(10.0, 13.0);
            assertThat(r.resources().remaining()).isEmpty();
        }
    }

    @Test
    void aMissingCheckpointFailsTheRunAtStartRunBeforeAnythingIsCreated() throws Exception {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            String uri = "s3://" + BUCKET + "/runs/ghost/checkpoint-epoch-1.pt";
            RunReport r = run(cloud, "resume-missing", spec -> {
                ((ObjectNode) spec.path("training")).put("resumeFrom", uri);
                return spec;
            });

            assertThat(r.status()).isEqualTo("FAILED");
            assertThat(r.failedState()).isEqualTo("StartRun");
            assertThat(r.cause()).contains("/training/resumeFrom", uri + ".sha256 does not exist");
            assertThat(r.events()).doesNotContain("Training Job Completed");
            assertThat(r.resources().remaining()).isEmpty();
        }
    }

    private static RunReport run(LocalCloud cloud, String runId, java.util.function.UnaryOperator<ObjectNode> edit)
            throws Exception {
        return run(cloud, runId, Faults.none(), edit);
    }

    private static RunReport run(
            LocalCloud cloud, String runId, Faults faults, java.util.function.UnaryOperator<ObjectNode> edit)
            throws Exception {
        ObjectNode spec = edit.apply(ClusterRulesRunTest.example("quickstart.json"));
        spec.put("runId", runId);
        return new LocalRun(cloud, faults, e -> {}).execute(RunSpecs.normalize(Json.write(spec)), runId);
    }

    /** How long the run's training Job ran, as its Training Job Completed event says. */
    private static Duration training(LocalCloud cloud, String runId) {
        JsonNode detail = cloud.bus().events().stream()
                .filter(e -> e.detailType().equals("Training Job Completed"))
                .map(e -> e.detail())
                .filter(d -> d.path("runId").asText().equals(runId))
                .findFirst()
                .orElseThrow();
        return Duration.between(
                Instant.parse(detail.path("startTime").asText()),
                Instant.parse(detail.path("completionTime").asText()));
    }
}
