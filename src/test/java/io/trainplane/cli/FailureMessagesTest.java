package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a person reads when a run ends badly: the failure, what to do, and what Ctrl-C did. */
class FailureMessagesTest {
    @TempDir
    Path dir;

    @Test
    void aFailedQualityGateSaysWhatToDo() {
        String store = dir.resolve("store").toString();
        CliTest.Result r =
                CliTest.cli("run", "examples/quickstart.json", "--store", store, "--cluster-fault", "low-accuracy");
        assertThat(r.exit()).as(r.err()).isEqualTo(Main.FAILED);
        assertThat(r.out())
                .contains("error:        QualityGate: accuracy")
                .containsPattern(
                        "what to do: +the model was trained and evaluated but is kept out of use: train longer")
                .doesNotContain("failed state: null")
                .containsPattern("cost: +\\$\\d+\\.\\d\\d actual \\(what the run used, at us-east-1 prices of ");

        // status says the same, and what the run holds now: nothing; the outputs are kept on purpose.
        CliTest.Result status = CliTest.cli("status", "quickstart", "--store", store);
        assertThat(status.out())
                .contains("what to do: the model was trained and evaluated but is kept out of use")
                .contains("holds:      nothing", "kept:       s3:outputs/", "cleanup:    started ", ", finished ")
                .containsPattern("deleted:    .*eks:cluster/tp-quickstart-eks")
                .containsPattern(
                        "gate:       accuracy ≥ 0\\.6: 0\\.\\d+, failed: accuracy 0\\.\\d+ is below evaluation.min 0\\.6")
                .doesNotContain("resource:");
    }

    /** A gate on a maximum: the same model fails it for being above, and every report names the bound. */
    @Test
    void aGateOnAMaximumNamesTheMetricTheValueAndTheBound() throws IOException {
        String store = dir.resolve("store").toString();
        ObjectNode spec = (ObjectNode) Json.read(Files.readString(Path.of("examples/quickstart.json")));
        spec.putObject("evaluation").put("metric", "accuracy").put("max", 0.2);
        Path file = dir.resolve("max-gate.json");
        Files.writeString(file, spec.toString());

        CliTest.Result plan = CliTest.cli("plan", file.toString());
        assertThat(plan.out())
                .contains("# Quality gate: accuracy ≤ 0.2 on the evaluation's metrics, else the run fails");
        CliTest.Result r = CliTest.cli("run", file.toString(), "--store", store);
        assertThat(r.exit()).as(r.err()).isEqualTo(Main.FAILED);
        assertThat(r.out())
                .containsPattern(
                        "error: +QualityGate: accuracy 0\\.\\d+ is above evaluation.max 0\\.2 \\(the quality gate\\)");
        CliTest.Result status = CliTest.cli("status", "quickstart", "--store", store, "--output", "json");
        JsonNode gate = Json.read(status.out()).path("gate");
        assertThat(gate.path("metric").asText()).isEqualTo("accuracy");
        assertThat(gate.path("max").asDouble()).isEqualTo(0.2);
        assertThat(gate.has("min")).isFalse();
        assertThat(gate.path("value").asDouble()).isGreaterThan(0.2);
        assertThat(gate.path("passed").asBoolean()).isFalse();
    }

    /**
     * A real Ctrl-C: SIGINT to a CLI in its own JVM while the run provisions. The run stops before
     * its next state, the safety net cleans up, the summary says so, and the JVM exits 130.
     */
    @Test
    void ctrlCStopsTheRunAndCleansUp() throws IOException, InterruptedException {
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process cli = new ProcessBuilder(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        Main.class.getName(),
                        "run",
                        "examples/quickstart.json",
                        "--store",
                        dir.resolve("store").toString())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!Files.readString(err, StandardCharsets.UTF_8).contains("▶ cluster (")) {
                assertThat(cli.isAlive())
                        .as("the run is still going when interrupted")
                        .isTrue();
                assertThat(System.nanoTime())
                        .as("the run reached its cluster phase")
                        .isLessThan(deadline);
                Thread.sleep(100);
            }
            new ProcessBuilder("kill", "-INT", Long.toString(cli.pid()))
                    .inheritIO()
                    .start()
                    .waitFor();
            assertThat(cli.waitFor(120, TimeUnit.SECONDS)).as("the CLI ends").isTrue();
        } finally {
            cli.destroyForcibly();
        }
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(cli.exitValue()).as(stderr).isEqualTo(130);
        assertThat(stderr)
                .contains("interrupted (Ctrl-C): stopping run quickstart before its next state")
                .containsIgnoringCase("■ execution aborted")
                .containsPattern("stopped by Ctrl-C: run quickstart ended CANCELLED after \\d+ state transitions;"
                        + " cleanup deleted what it created \\(\\d+ resources\\), nothing remains")
                .contains("stored in");
        assertThat(stdout)
                .contains("status:       CANCELLED", "error:        ExecutionAborted", "remaining:    none")
                .contains("what to do:   the run was stopped");

        CliTest.Result status = CliTest.cli(
                "status", "quickstart", "--store", dir.resolve("store").toString(), "--output", "json");
        assertThat(status.exit()).as(status.err()).isZero();
        assertThat(Json.read(status.out()).path("status").asText()).isEqualTo("CANCELLED");
        assertThat(Json.read(status.out()).path("error").path("whatToDo").asText())
                .contains("stopped");
    }
}
