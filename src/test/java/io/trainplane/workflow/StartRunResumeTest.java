package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.FailureReason;
import io.trainplane.core.Json;
import io.trainplane.runs.RunOutputs;
import io.trainplane.spec.InvalidSpecException;
import io.trainplane.spec.RunSpecs;
import io.trainplane.spec.SpecProblem;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * StartRun resolves training.resumeFrom to a checkpoint, copies it into the run's own prefix (all
 * the run's pods may read) checked against the digest the earlier run recorded, or refuses it before
 * anything exists.
 */
class StartRunResumeTest {
    private static final byte[] CHECKPOINT = "epoch 2 weights".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    private StartedRun earlier;
    private String bucket;

    @BeforeEach
    void anEarlierRunThatKeptACheckpoint() {
        earlier = new StartedRun("resume-base");
        bucket = earlier.settings.artifactsBucket();
        String out = "s3://" + bucket + "/runs/tp-resume-base/";
        String sha =
                put("runs/tp-resume-base/checkpoint-epoch-2.pt", CHECKPOINT).sha256Hex();
        earlier.store.update(
                "resume-base",
                r -> r.withOutputs(
                        new RunOutputs(out, out + "model.pt", "0".repeat(64), "checkpoint-epoch-2.pt", sha)));
    }

    private io.trainplane.local.sim.SimulatedS3.ObjectVersion put(String key, byte[] body) {
        return earlier.cloud.s3().putObject(bucket, key, body, io.trainplane.local.sim.SimulatedS3.Transport.TLS);
    }

    private byte[] get(String key) {
        return earlier.cloud.s3().getObject(bucket, key, io.trainplane.local.sim.SimulatedS3.Transport.TLS);
    }

    @AfterEach
    void close() {
        earlier.close();
    }

    /** StartRun on the earlier run's cloud and store, for the quickstart with epochs and resumeFrom set. */
    private JsonNode start(String runId, Integer epochs, String resumeFrom) {
        ObjectNode spec = (ObjectNode) Json.read(StartedRun.example("quickstart"));
        ObjectNode training = (ObjectNode) spec.path("training");
        if (epochs == null) {
            training.remove("epochs");
        } else {
            training.put("epochs", epochs);
        }
        training.put("resumeFrom", resumeFrom);
        spec.put("runId", runId);
        ObjectNode input = Json.object().put("executionName", runId);
        input.set("spec", spec);
        return earlier.startRun().run(input);
    }

    @Test
    void anEarlierRunsIdBecomesACopyOfTheCheckpointItsOutputsKeptInTheRunsOwnPrefix() {
        JsonNode state = start("resume-next", 5, "resume-base");
        String expected = "s3://" + bucket + "/runs/tp-resume-next/resume/checkpoint-epoch-2.pt";
        assertThat(get("runs/tp-resume-next/resume/checkpoint-epoch-2.pt")).isEqualTo(CHECKPOINT);
        assertThat(new String(
                        get("runs/tp-resume-next/resume/checkpoint-epoch-2.pt.sha256"),
                        java.nio.charset.StandardCharsets.UTF_8))
                .startsWith(earlier.store.get("resume-base").outputs().checkpointSha256() + "  checkpoint-epoch-2.pt");
        assertThat(state.at("/spec/training/resumeFrom").asText()).isEqualTo(expected);
        assertThat(Json.read(earlier.store.get("resume-next").specJson())
                        .at("/training/resumeFrom")
                        .asText())
                .isEqualTo(expected);
        assertThat(RunContext.from(state).spec().training().resumeFrom()).isEqualTo(expected);
    }

    @Test
    void aCheckpointChangedSinceItsRunRecordedItFailsTheRunAndIsNotCopied() {
        put("runs/tp-resume-base/checkpoint-epoch-2.pt", "planted".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThatThrownBy(() -> start("resume-planted", 5, "resume-base"))
                .isInstanceOfSatisfying(io.trainplane.core.TerminalException.class, e -> {
                    assertThat(e.reason()).isEqualTo(FailureReason.CheckpointMismatch);
                    assertThat(e.getMessage()).contains("the run that kept it recorded");
                });
        assertThat(earlier.cloud
                        .s3()
                        .versionCount(bucket, "runs/tp-resume-planted/resume/checkpoint-epoch-2.pt.sha256"))
                .as("no digest written for bytes that do not match")
                .isZero();
    }

    @Test
    void aSyncedCheckpointsUriIsCopiedAndHeldToTheSha256BesideIt() {
        String key = "runs/tp-elsewhere/checkpoints/checkpoint-epoch-3-step-40.pt";
        String sha = put(key, CHECKPOINT).sha256Hex();
        put(
                key + ".sha256",
                (sha + "  checkpoint-epoch-3-step-40.pt\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(start("resume-uri", 10, "s3://" + bucket + "/" + key)
                        .at("/spec/training/resumeFrom")
                        .asText())
                .isEqualTo("s3://" + bucket + "/runs/tp-resume-uri/resume/checkpoint-epoch-3-step-40.pt");

        put(
                key + ".sha256",
                ("0".repeat(64) + "  checkpoint-epoch-3-step-40.pt\n")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThatThrownBy(() -> start("resume-forged", 10, "s3://" + bucket + "/" + key))
                .isInstanceOfSatisfying(io.trainplane.core.TerminalException.class, e -> assertThat(e.getMessage())
                        .contains("its .sha256 says " + "0".repeat(64)));
        refused(
                () -> start("resume-missing", 10, "s3://" + bucket + "/runs/tp-elsewhere/checkpoint-epoch-1.pt"),
                "does not exist",
                "earlier run's ID");
    }

    @Test
    void anUnknownRunIsRefusedAndNothingIsRecorded() {
        refused(() -> start("resume-unknown", 5, "no-such-run"), "no run 'no-such-run'", "trainplane list");
        assertThat(earlier.store.find("resume-unknown")).isEmpty();
    }

    @Test
    void aRunWithoutACheckpointIsRefused() {
        earlier.store.update(
                "resume-base",
                r -> r.withOutputs(new RunOutputs(
                        r.outputs().s3Uri(), r.outputs().modelUri(), r.outputs().modelSha256(), null, null)));
        refused(() -> start("resume-none", 5, "resume-base"), "kept no checkpoint", "trainplane status resume-base");
        refused(() -> start("resume-none", 5, "resume-base"), "kept no checkpoint", "runs/tp-resume-base/checkpoints/");
        assertThat(earlier.store.find("resume-none")).isEmpty();
    }

    @Test
    void aRunCannotResumeFromItself() {
        refused(() -> start("resume-self", 5, "resume-self"), "this run itself", "earlier run");
    }

    @Test
    void aCheckpointOutsideTheStacksRunsIsRefused() {
        refused(
                () -> start("resume-other", 5, "s3://my-models/ckpt/checkpoint-epoch-1.pt"),
                "outside the runs of this stack",
                "give an earlier run's ID");
        refused(
                () -> start("resume-outside", 5, "s3://" + bucket + "/models/checkpoint-epoch-1.pt"),
                "outside the runs of this stack",
                "runs/");
        assertThat(earlier.store.find("resume-other")).isEmpty();
    }

    @Test
    void aCheckpointWithNoEpochLeftToTrainIsRefused() {
        // The earlier run's checkpoint has 2 epochs; the quickstart without epochs takes the default 10.
        refused(() -> start("resume-done", 2, "resume-base"), "has trained 2 epochs, training.epochs is 2", "above 2");
        assertThat(start("resume-default", null, "resume-base")
                        .at("/spec/training/epochs")
                        .asInt())
                .isEqualTo(10);
    }

    @Test
    void theSpecRulesRefuseAnExhaustedCheckpointUriAndAVolumeOfNone() {
        String base = "{\"cluster\": {\"mode\": \"existing\", \"name\": \"c\"}, \"volume\": {\"type\": \"%s\"},"
                + " \"training\": {\"epochs\": 3, \"resumeFrom\": \"s3://b-1/runs/r/checkpoint-epoch-%d.pt\"}}";
        assertThat(problems(String.format(base, "efs", 3))).singleElement().satisfies(p -> {
            assertThat(p.pointer()).isEqualTo("/training/resumeFrom");
            assertThat(p.message()).contains("checkpoint-epoch-3.pt has trained 3 epochs");
        });
        assertThat(problems(String.format(base, "none", 1))).singleElement().satisfies(p -> assertThat(p.hint())
                .contains("volume.type to \"efs\""));
        assertThat(RunSpecs.parse(String.format(base, "efs", 2)).training().resumeFrom())
                .isEqualTo("s3://b-1/runs/r/checkpoint-epoch-2.pt");
    }

    @Test
    void theSchemaRefusesWhatIsNeitherARunIdNorACheckpointUri() {
        for (String bad : new String[] {"s3://b-1/runs/r/model.pt", "Not_A_Run", "s3://b-1/runs/r/"}) {
            assertThat(problems("{\"cluster\": {\"mode\": \"existing\", \"name\": \"c\"}, \"volume\": {\"type\":"
                            + " \"efs\"}, \"training\": {\"resumeFrom\": \"" + bad + "\"}}"))
                    .as(bad)
                    .anySatisfy(p -> {
                        assertThat(p.pointer()).isEqualTo("/training/resumeFrom");
                        assertThat(p.message()).contains("checkpoint-epoch-N.pt");
                    });
        }
    }

    private static java.util.List<SpecProblem> problems(String spec) {
        try {
            RunSpecs.normalize(spec);
            return java.util.List.of();
        } catch (InvalidSpecException e) {
            return e.problems();
        }
    }

    private static void refused(ThrowingCallable start, String message, String hint) {
        assertThatThrownBy(start).isInstanceOfSatisfying(InvalidSpecException.class, e -> assertThat(e.problems())
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.pointer()).isEqualTo("/training/resumeFrom");
                    assertThat(p.message()).contains(message);
                    assertThat(p.hint()).contains(hint);
                }));
    }
}
