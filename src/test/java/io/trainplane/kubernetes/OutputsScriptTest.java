package io.trainplane.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import io.trainplane.spec.RunSpecs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The outputs Job's script, run for real by /bin/sh against a model directory written as an
 * attacker would (the AWS CLI replaced by a command that copies nothing): a .sha256 that names
 * another file, and a checkpoint whose name would break the report's JSON, are not taken.
 */
class OutputsScriptTest {
    @TempDir
    Path work;

    static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    @Test
    void theReportIsJsonAndNamesTheNewestCheckpointWhoseOwnBytesMatchItsDigest() throws Exception {
        Path model = Files.createDirectories(work.resolve("model"));
        Path bin = Files.createDirectories(work.resolve("bin"));
        Files.writeString(bin.resolve("aws"), "#!/bin/sh\nexit 0\n");
        bin.resolve("aws").toFile().setExecutable(true);
        Files.writeString(model.resolve("model.pt"), "weights");
        byte[] good = "epoch one".getBytes(StandardCharsets.UTF_8);
        Files.write(model.resolve("checkpoint-epoch-1.pt"), good);
        Files.writeString(model.resolve("checkpoint-epoch-1.pt.sha256"), sha256(good) + "  checkpoint-epoch-1.pt\n");
        // Newer: its .sha256 records the good file's digest and name, not its own bytes'.
        Files.writeString(model.resolve("checkpoint-epoch-2.pt"), "planted");
        Files.writeString(model.resolve("checkpoint-epoch-2.pt.sha256"), sha256(good) + "  checkpoint-epoch-1.pt\n");
        // Newest: a true digest, but a name made to close the JSON string.
        byte[] crafted = "crafted".getBytes(StandardCharsets.UTF_8);
        String name = "checkpoint-x\\\",\\\"modelUri\\\":\\\"s3:evil.pt";
        Files.write(model.resolve(name), crafted);
        Files.writeString(model.resolve(name + ".sha256"), sha256(crafted) + "  " + name + "\n");
        long now = System.currentTimeMillis();
        Files.setLastModifiedTime(model.resolve("checkpoint-epoch-1.pt.sha256"), FileTime.fromMillis(now - 3000));
        Files.setLastModifiedTime(model.resolve("checkpoint-epoch-2.pt.sha256"), FileTime.fromMillis(now - 2000));
        Files.setLastModifiedTime(model.resolve(name + ".sha256"), FileTime.fromMillis(now - 1000));

        String script = new WorkloadManifests(RunSpecs.fromNormalized(
                        RunSpecs.normalize("{\"runId\": \"r1\", \"cluster\": {\"mode\": \"existing\", \"name\": \"c\"},"
                                + " \"output\": {\"s3Uri\": \"s3://bucket/runs/r1/\"}}")))
                .outputsJob()
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .getFirst()
                .getCommand()
                .get(2)
                .replace("dir=" + WorkloadManifests.SHARED_DIR + "/model", "dir=" + model)
                .replace("/dev/termination-log", work.resolve("report").toString());
        ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", script).redirectErrorStream(true);
        builder.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        builder.environment().put(WorkloadManifests.OUTPUT_URI_ENV, "s3://bucket/runs/r1/");
        Process sh = builder.start();
        String output = new String(sh.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(sh.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(sh.exitValue()).as(output).isZero();

        JsonNode report = Json.read(Files.readString(work.resolve("report")));
        assertThat(report.path("checkpoint").asText()).isEqualTo("checkpoint-epoch-1.pt");
        assertThat(report.path("modelUri").asText()).isEqualTo("s3://bucket/runs/r1/model.pt");
        assertThat(report.path("modelSha256").asText()).isEqualTo(sha256("weights".getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * A training stopped by its budget leaves its checkpoint and no model: with MODEL_OPTIONAL the
     * report has the checkpoint and an empty model; without it the missing model fails the copy (the
     * stand-in CLI refuses a path that does not exist, as {@code aws s3 cp} does).
     */
    @Test
    void aModelIsOptionalOnlyForATrainingItsBudgetStopped() throws Exception {
        Path model = Files.createDirectories(work.resolve("model"));
        Path bin = Files.createDirectories(work.resolve("bin"));
        Files.writeString(bin.resolve("aws"), "#!/bin/sh\n[ -f \"$3\" ]\n");
        bin.resolve("aws").toFile().setExecutable(true);
        byte[] checkpoint = "epoch two".getBytes(StandardCharsets.UTF_8);
        Files.write(model.resolve("checkpoint-epoch-2.pt"), checkpoint);
        Files.writeString(
                model.resolve("checkpoint-epoch-2.pt.sha256"), sha256(checkpoint) + "  checkpoint-epoch-2.pt\n");
        WorkloadManifests manifests = new WorkloadManifests(RunSpecs.fromNormalized(
                RunSpecs.normalize("{\"runId\": \"r1\", \"cluster\": {\"mode\": \"existing\", \"name\": \"c\"},"
                        + " \"output\": {\"s3Uri\": \"s3://bucket/runs/r1/\"}}")));

        for (boolean optional : new boolean[] {true, false}) {
            var container = manifests
                    .outputsJob(optional)
                    .getSpec()
                    .getTemplate()
                    .getSpec()
                    .getContainers()
                    .getFirst();
            String script = container
                    .getCommand()
                    .get(2)
                    .replace("dir=" + WorkloadManifests.SHARED_DIR + "/model", "dir=" + model)
                    .replace("/dev/termination-log", work.resolve("report").toString());
            ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", script).redirectErrorStream(true);
            builder.environment().put("PATH", bin + ":" + System.getenv("PATH"));
            container.getEnv().forEach(v -> builder.environment().put(v.getName(), v.getValue()));
            Process sh = builder.start();
            String output = new String(sh.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(sh.waitFor(30, TimeUnit.SECONDS)).isTrue();
            if (optional) {
                assertThat(sh.exitValue()).as(output).isZero();
                JsonNode report = Json.read(Files.readString(work.resolve("report")));
                assertThat(report.path("checkpoint").asText()).isEqualTo("checkpoint-epoch-2.pt");
                assertThat(report.path("checkpointSha256").asText()).isEqualTo(sha256(checkpoint));
                assertThat(report.path("modelUri").asText()).isEmpty();
                Files.delete(work.resolve("report"));
            } else {
                assertThat(sh.exitValue()).as(output).isNotZero();
                assertThat(work.resolve("report")).doesNotExist();
            }
        }
    }
}
