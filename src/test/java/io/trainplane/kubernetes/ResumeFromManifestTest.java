package io.trainplane.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.RunSpecs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The data Job's pod fetches training.resumeFrom onto the volume, as the run's Pod Identity, and verifies it. */
class ResumeFromManifestTest {
    static final String URI = "s3://artifacts-1/runs/base/checkpoint-epoch-2.pt";

    static RunSpec resuming() {
        return RunSpecs.parse(
                """
                {"runId": "nightly-8", "cluster": {"mode": "existing", "name": "warm"}, "volume": {"type": "efs"},
                 "training": {"epochs": 5, "resumeFrom": "%s"}}"""
                        .formatted(URI));
    }

    @Test
    void theDataPodRunsAsTheRunsServiceAccountWithAnInitContainerThatFetchesAndVerifies() {
        var pod = new WorkloadManifests(resuming())
                .dataJob()
                .getSpec()
                .getTemplate()
                .getSpec();
        assertThat(pod.getServiceAccountName()).isEqualTo("trainplane-run");
        Container fetch = pod.getInitContainers().getFirst();
        assertThat(fetch.getName()).isEqualTo(WorkloadManifests.FETCH_CHECKPOINT);
        assertThat(fetch.getImage()).isEqualTo(WorkloadManifests.AWS_CLI_IMAGE);
        assertThat(fetch.getEnv()).anySatisfy(e -> assertThat(e.getName() + "=" + e.getValue())
                .isEqualTo(WorkloadManifests.RESUME_FROM_ENV + "=" + URI));
        assertThat(fetch.getTerminationMessagePolicy()).isEqualTo("FallbackToLogsOnError");
        assertThat(fetch.getVolumeMounts())
                .anySatisfy(m -> assertThat(m.getMountPath()).isEqualTo("/shared"));
        String script = fetch.getCommand().get(2);
        assertThat(script)
                .contains(
                        "name=$(basename \"$RESUME_FROM_S3_URI\")",
                        "aws s3 cp",
                        "sha256sum -c",
                        "exit 3",
                        "dir=/shared/model");
        // The main container is still prepare.py, on the system nodes.
        assertThat(pod.getContainers().getFirst().getName()).isEqualTo("data");
    }

    @Test
    void anUnresolvedRunIdStillMakesTheManifestsThatPlanPrints() {
        var spec = RunSpecs.parse(
                """
                {"runId": "nightly-9", "cluster": {"mode": "existing", "name": "warm"}, "volume": {"type": "efs"},
                 "training": {"resumeFrom": "nightly-8"}}""");
        assertThat(new WorkloadManifests(spec).all()).isNotEmpty();
    }

    @Test
    void withoutResumeFromTheDataPodHasNoInitContainerAndNoIdentity() {
        var pod = new WorkloadManifests(
                        RunSpecs.parse("{\"runId\": \"n\", \"cluster\": {\"mode\": \"existing\", \"name\": \"w\"}}"))
                .dataJob()
                .getSpec()
                .getTemplate()
                .getSpec();
        assertThat(pod.getInitContainers()).isNullOrEmpty();
        assertThat(pod.getServiceAccountName()).isNull();
    }

    /** The script, run by sh with an {@code aws} that copies from a local directory standing for the bucket. */
    @Test
    void theScriptKeepsAVerifiedCheckpointAndRefusesAMismatchLeavingNothing(@TempDir Path tmp) throws Exception {
        Path bucket = Files.createDirectories(tmp.resolve("bucket"));
        byte[] checkpoint = "weights".getBytes(StandardCharsets.UTF_8);
        Files.write(bucket.resolve("checkpoint-epoch-2.pt"), checkpoint);
        Files.writeString(
                bucket.resolve("checkpoint-epoch-2.pt.sha256"), sha256(checkpoint) + "  checkpoint-epoch-2.pt\n");

        Result ok = run(tmp, bucket);
        assertThat(ok.exit()).isZero();
        assertThat(Files.readAllBytes(tmp.resolve("shared/model/checkpoint-epoch-2.pt")))
                .isEqualTo(checkpoint);
        assertThat(tmp.resolve("shared/model/checkpoint-epoch-2.pt.sha256")).exists();

        Files.delete(tmp.resolve("shared/model/checkpoint-epoch-2.pt"));
        Files.delete(tmp.resolve("shared/model/checkpoint-epoch-2.pt.sha256"));
        Files.write(bucket.resolve("checkpoint-epoch-2.pt"), "torn".getBytes(StandardCharsets.UTF_8));
        Result bad = run(tmp, bucket);
        assertThat(bad.exit()).isEqualTo(WorkloadManifests.CHECKPOINT_MISMATCH);
        assertThat(bad.termination()).contains("CHECKPOINT CHECKSUM MISMATCH " + URI, sha256(checkpoint));
        try (var left = Files.list(tmp.resolve("shared/model"))) {
            assertThat(left.toList()).isEmpty();
        }

        Files.delete(bucket.resolve("checkpoint-epoch-2.pt"));
        assertThat(run(tmp, bucket).exit()).isEqualTo(1);
    }

    record Result(int exit, String termination) {}

    private static Result run(Path tmp, Path bucket) throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        // aws s3 cp s3://.../<name> <to> ...: the CLI's exit 1 and its line when the key is missing.
        Files.writeString(
                bin.resolve("aws"),
                """
                #!/bin/sh
                src="%s/$(basename "$3")"
                if [ ! -f "$src" ]; then echo "fatal error: An error occurred (404) when calling the HeadObject operation: Key does not exist" >&2; exit 1; fi
                cp "$src" "$4"
                """
                        .formatted(bucket));
        bin.resolve("aws").toFile().setExecutable(true);
        Path termination = tmp.resolve("termination-log");
        Files.deleteIfExists(termination);
        String script = new WorkloadManifests(resuming())
                .dataJob()
                .getSpec()
                .getTemplate()
                .getSpec()
                .getInitContainers()
                .getFirst()
                .getCommand()
                .get(2)
                .replace("/shared", tmp.resolve("shared").toString())
                .replace("/dev/termination-log", termination.toString());
        var process = new ProcessBuilder(List.of("/bin/sh", "-c", script)).redirectErrorStream(true);
        process.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        process.environment().put(WorkloadManifests.RESUME_FROM_ENV, URI);
        Process p = process.start();
        p.getInputStream().readAllBytes();
        int exit = p.waitFor();
        return new Result(exit, Files.exists(termination) ? Files.readString(termination) : "");
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
