package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crash of the user's own code under real torchrun (the process runtime): the run says the
 * exception the user raised, not torchrun's ChildFailedError, and fails after one attempt.
 */
class UserExceptionFirstTest {
    static final String RAISED = "ModuleNotFoundError: No module named 'nonexistent_module'";

    @Test
    void aModuleNotFoundErrorInTrainPyIsTheRunsErrorAfterOneAttempt(@TempDir Path temp) throws Exception {
        Map<String, String> env = InitCommandTest.processRuntimeEnvironment(temp);
        Path dir = temp.resolve("my-model");
        assertThat(InitCommandTest.cli(env, "init", dir.toString()).exit()).isZero();
        Files.writeString(dir.resolve("train.py"), "import os\n\nimport nonexistent_module\n");
        Path spec = dir.resolve("trainplane.json");
        Files.writeString(spec, Files.readString(spec).replaceFirst("\\{", "{ \"runId\": \"crash\","));

        InitCommandTest.Result run = InitCommandTest.cli(env, "run", spec.toString(), "--runtime", "process");
        assertThat(run.exit()).as(run.err() + run.out()).isEqualTo(Main.FAILED);
        assertThat(run.out())
                .contains(
                        // (the process runtime runs /workload from a directory of its own)
                        "error:        TrainingFailed: " + RAISED + " (at ",
                        "/workload/train.py:3 in <module>) — the training Job tp-crash-train failed (PodFailurePolicy",
                        "log tail:",
                        "  | " + RAISED);

        InitCommandTest.Result status = InitCommandTest.cli(env, "status", "crash", "--local", "--output", "json");
        assertThat(status.exit()).as(status.err()).isZero();
        JsonNode error = Json.read(status.out()).path("error");
        assertThat(error.path("error").asText()).isEqualTo("TrainingFailed");
        assertThat(error.path("cause").asText()).startsWith(RAISED);
        String tail = error.path("logTail").asText();
        // The user's traceback, then torchrun's summary: one failure reported, nothing restarted.
        assertThat(tail).startsWith("Traceback (most recent call last):").contains(RAISED, "ChildFailedError");

        // One attempt: torchrun was told not to restart, and its agent saw the workers fail once.
        InitCommandTest.Result logs = InitCommandTest.cli(env, "logs", "crash", "--local", "--tail", "1000");
        assertThat(logs.out()).contains("--max-restarts=0");
        assertThat(logs.out().split("\\] failed \\(exitcode: ", -1))
                .as(logs.out())
                .hasSize(2);

        InitCommandTest.Result text = InitCommandTest.cli(env, "status", "crash", "--local");
        assertThat(text.out()).contains("error:      TrainingFailed: " + RAISED, "log tail:", "  | " + RAISED);
    }

    /**
     * A PyTorchJob of two workers: the exception the failing rank raised is the run's error, found
     * in whichever replica's pod failed with it (the first failed pod may be one that only ended
     * with it). Whether torchrun's restarts (elasticPolicy.maxRestarts) ran before the run failed
     * depends on how fast real processes crash here; ClusterFaultsTest and PyTorchJobRunTest count
     * the attempts in simulated time.
     */
    @Test
    void aCrashInAPyTorchJobOfTwoWorkersIsTheRunsError(@TempDir Path temp) throws Exception {
        Map<String, String> env = InitCommandTest.processRuntimeEnvironment(temp);
        Path dir = temp.resolve("my-model");
        assertThat(InitCommandTest.cli(env, "init", dir.toString()).exit()).isZero();
        Files.writeString(dir.resolve("train.py"), "import os\n\nimport nonexistent_module\n");
        Path spec = dir.resolve("trainplane.json");
        Files.writeString(
                spec,
                Files.readString(spec)
                        .replaceFirst("\\{", "{ \"runId\": \"crash\",")
                        .replace("\"nodes\": 1", "\"nodes\": 2")
                        .replace("\"workers\": 1,", "\"workers\": 2, \"launcher\": \"pytorchjob\","));

        InitCommandTest.Result run = InitCommandTest.cli(env, "run", spec.toString(), "--runtime", "process");
        assertThat(run.exit()).as(run.err() + run.out()).isEqualTo(Main.FAILED);

        InitCommandTest.Result status = InitCommandTest.cli(env, "status", "crash", "--local", "--output", "json");
        JsonNode json = Json.read(status.out());
        assertThat(json.path("status").asText()).isEqualTo("FAILED");
        assertThat(json.at("/error/error").asText()).isEqualTo("TrainingFailed");
        assertThat(json.at("/error/cause").asText()).as(status.out()).startsWith(RAISED);
        assertThat(json.at("/error/logTail").asText()).contains(RAISED);
        assertThat(json.path("metrics").has("restarts")).as(status.out()).isFalse();
    }
}
