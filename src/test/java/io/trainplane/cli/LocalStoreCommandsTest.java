package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import io.trainplane.local.LocalStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * status, list, watch, logs and cancel against the local store that 'trainplane run' writes:
 * one run that succeeds and one whose training crash-loops, each run once, in a store of this
 * class's own (never the working directory's .trainplane/).
 */
class LocalStoreCommandsTest {
    @TempDir
    static Path store;

    @TempDir
    static Path specs;

    static CliTest.Result cli(String... args) {
        return cli(Map.of(), args);
    }

    static CliTest.Result cli(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CliClients clients = RunFixtures.withEnvironment(RunFixtures.clients(null, null, null), env, () -> {
            throw new AssertionError("a local run is over: watch never waits for it");
        });
        int exit = Main.commandLine(clients)
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(args);
        return new CliTest.Result(exit, out.toString(), err.toString());
    }

    /** What 'trainplane run' of the quickstart printed. */
    static CliTest.Result quickstart;

    @BeforeAll
    static void twoLocalRuns() throws IOException {
        CliTest.Result ok =
                cli("run", "examples/quickstart.json", "--runtime", "simulated", "--store", store.toString());
        quickstart = ok;
        assertThat(ok.exit()).as(ok.err()).isZero();
        assertThat(ok.err()).contains("stored in " + store);
        Path crashing = specs.resolve("crash.json");
        Files.writeString(
                crashing,
                Files.readString(Path.of("examples/existing-cluster.json"))
                        .replace("\"warm-cluster\"", "\"crashing\""));
        CliTest.Result bad =
                cli("run", crashing.toString(), "--cluster-fault", "crash-loop", "--store", store.toString());
        assertThat(bad.exit()).as(bad.err()).isEqualTo(Main.FAILED);
    }

    @Test
    void startLocallyRunsTheSpecIntoTheStore(@TempDir Path other) {
        CliTest.Result started =
                cli("start", "examples/quickstart.json", "--store", other.toString(), "--output", "json");
        assertThat(started.exit()).as(started.err()).isZero();
        assertThat(Json.read(started.out()).path("status").asText()).isEqualTo("SUCCEEDED");
        CliTest.Result status = cli("status", "quickstart", "--store", other.toString(), "--output", "json");
        assertThat(status.exit()).as(status.err()).isZero();
        assertThat(Json.read(status.out()).path("status").asText()).isEqualTo("SUCCEEDED");
    }

    @Test
    void startWantsOneTarget() {
        CliTest.Result r = cli("start", "examples/quickstart.json", "--local", "--stack", "prod");
        assertThat(r.exit()).isEqualTo(Main.INVALID_INPUT);
        assertThat(r.err()).contains("--local", "--stack").doesNotContain("Exception");
    }

    @Test
    void statusReadsARunAfterItsProcessEnded() {
        CliTest.Result r = cli("status", "quickstart", "--store", store.toString(), "--output", "json");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode n = Json.read(r.out());
        assertThat(n.path("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(n.path("steps").findValuesAsText("state")).contains("StartRun", "CheckTraining", "FinishRun");
        assertThat(n.path("metrics").has("accuracy")).isTrue();
    }

    @Test
    void localFindsTheStoreThroughTrainplaneHome() {
        CliTest.Result r = cli(Map.of(LocalStore.HOME_VARIABLE, store.toString()), "status", "crashing", "--local");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("FAILED", "failed (exit code 1) with no node lost", "simulated crash at start-up");
    }

    @Test
    void listShowsBothRuns() {
        CliTest.Result r = cli("list", "--store", store.toString(), "--output", "json");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(Json.read(r.out()).findValuesAsText("runId")).containsExactlyInAnyOrder("quickstart", "crashing");
        assertThat(cli("list", "--store", store.toString(), "--status", "failed")
                        .out())
                .contains("crashing")
                .doesNotContain("quickstart");
    }

    @Test
    void runPrintsOneLinePerPhaseWithItsDurationAndTheEpochsNotEveryPoll() {
        List<String> lines = quickstart.err().lines().toList();
        assertThat(lines)
                .filteredOn(l -> l.contains("▶ "))
                .extracting(l -> l.replaceFirst("^\\[\\d+:\\d\\d:\\d\\d\\] ▶ (\\w+).*$", "$1"))
                .containsExactly("start", "cluster", "volume", "data", "train", "evaluate", "outputs", "cleanup");
        assertThat(quickstart.err())
                .containsPattern("▶ volume \\(cluster took 1\\dm\\d\\ds\\)")
                .containsPattern("■ execution succeeded \\(cleanup took \\d+m\\d\\ds\\)")
                .doesNotContain("CheckTeardown", "WaitForTeardown", "CheckCluster", "\r");
        // Plain lines (not a terminal): one per new epoch, each once, with the loss and an ETA.
        List<String> epochs = lines.stream().filter(l -> l.contains(" epoch ")).toList();
        assertThat(epochs).isNotEmpty().doesNotHaveDuplicates();
        assertThat(epochs.stream().map(l -> l.replaceFirst(".* epoch (\\d+)/10 .*", "$1")))
                .doesNotHaveDuplicates();
        assertThat(epochs.getFirst()).containsPattern("epoch \\d+/10 loss \\d\\.\\d{4} ETA \\d+m\\d\\ds");
        // No line is printed twice: no poll shows.
        assertThat(lines.stream().map(l -> l.replaceFirst("^\\[[^]]*\\] ", "")).toList())
                .doesNotHaveDuplicates();
    }

    @Test
    void statusShowsRealPhaseDurationsThatAddUpToTheRunsDuration() {
        CliTest.Result r = cli("status", "quickstart", "--store", store.toString(), "--output", "json");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode run = Json.read(r.out());
        double runSeconds = java.time.Duration.between(
                                java.time.Instant.parse(run.path("createdAt").asText()),
                                java.time.Instant.parse(run.path("updatedAt").asText()))
                        .toMillis()
                / 1000.0;
        List<JsonNode> phases = new java.util.ArrayList<>();
        run.path("phases").forEach(phases::add);
        assertThat(phases)
                .extracting(p -> p.path("phase").asText())
                .containsExactly("start", "cluster", "volume", "data", "train", "evaluate", "outputs", "cleanup");
        assertThat(phases).allSatisfy(p -> assertThat(p.path("durationSeconds").asDouble())
                .as(p.toString())
                .isPositive());
        assertThat(phases.stream()
                        .mapToDouble(p -> p.path("durationSeconds").asDouble())
                        .sum())
                .isCloseTo(runSeconds, org.assertj.core.data.Offset.offset(0.01));
        // The cluster takes minutes on AWS and in the twin; its poll loop's step spans the loop.
        JsonNode cluster = phases.get(1);
        assertThat(cluster.path("durationSeconds").asDouble()).isGreaterThan(300);
        JsonNode checkCluster = null;
        for (JsonNode step : run.path("steps")) {
            if (step.path("state").asText().equals("CheckCluster")) {
                checkCluster = step;
            }
        }
        assertThat(checkCluster).isNotNull();
        assertThat(checkCluster.path("durationSeconds").asDouble()).isGreaterThan(300);
        assertThat(run.path("progress").path("epochs").asInt()).isEqualTo(10);
        assertThat(run.path("progress").path("epoch").asInt()).isBetween(1, 10);

        CliTest.Result text = cli("status", "quickstart", "--store", store.toString());
        assertThat(text.out())
                .containsPattern("phases:\\n  start .*\\n  cluster +\\S+ +1\\dm\\d\\ds")
                .containsPattern("training: +epoch \\d+/10 loss");
    }

    @Test
    void watchPrintsOneLinePerPhaseOfAFinishedRun() {
        CliTest.Result ok = cli("watch", "quickstart", "--store", store.toString());
        assertThat(ok.exit()).as(ok.err()).isZero();
        assertThat(ok.out())
                .containsSubsequence("▶ start", "▶ cluster (start took", "▶ volume (cluster took 1", "▶ cleanup (")
                .containsPattern("■ SUCCEEDED \\(cleanup took \\d+m\\d\\ds\\)")
                .doesNotContain("✓ ");
    }

    @Test
    void watchPrintsTheTimelineOfAFinishedRunAndExitsWithItsOutcome() {
        CliTest.Result ok = cli("watch", "quickstart", "--store", store.toString(), "--progress", "states");
        assertThat(ok.exit()).as(ok.err()).isZero();
        assertThat(ok.out())
                .contains("✓ StartRun", "✓ CheckTraining", "status SUCCEEDED")
                .containsPattern("run quickstart SUCCEEDED after 3\\dm");
        assertThat(ok.out()).containsPattern("\\[0:\\d\\d:\\d\\d\\] ✓ FinishRun");

        CliTest.Result bad = cli("watch", "crashing", "--store", store.toString());
        assertThat(bad.out()).doesNotContain("✓ ");
        assertThat(bad.exit()).isEqualTo(Main.FAILED);
        assertThat(bad.out())
                .contains(
                        "✗ CheckTraining",
                        "run crashing FAILED",
                        "failed in: CheckTraining",
                        "with no node lost",
                        "simulated crash at start-up");
    }

    @Test
    void watchAsJsonLines() {
        CliTest.Result r = cli("watch", "quickstart", "--store", store.toString(), "--output", "json");
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(1);
        assertThat(Json.read(lines.getLast()).path("status").asText()).isEqualTo("SUCCEEDED");
    }

    @Test
    void logsPrintTheFailureTailAndThePodsLogsTheRunKept() {
        CliTest.Result bad = cli("logs", "crashing", "--store", store.toString());
        assertThat(bad.exit()).as(bad.err()).isZero();
        assertThat(bad.out())
                .contains(
                        "failed in CheckTraining",
                        "simulated crash at start-up",
                        "== pod tp-crashing-train-0",
                        "kept by the local run");

        CliTest.Result ok = cli("logs", "quickstart", "--store", store.toString(), "--tail", "1", "--output", "json");
        JsonNode n = Json.read(ok.out());
        assertThat(n.path("failure").isNull()).isTrue();
        JsonNode training = n.path("pods").findParents("pod").stream()
                .filter(p -> p.path("pod").asText().startsWith("tp-quickstart-train-0"))
                .findFirst()
                .orElseThrow();
        assertThat(training.path("log").asText()).isEqualTo("epoch 10/10 loss 0.3113");
    }

    @Test
    void cancelSaysAFinishedLocalRunHasNothingToStop() {
        CliTest.Result r = cli("cancel", "quickstart", "--store", store.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("already finished (SUCCEEDED): nothing to stop");
        assertThat(cli("cancel", "nope", "--store", store.toString()).exit()).isEqualTo(Main.NOT_FOUND);
    }

    @Test
    void mistakesNameTheFixWithoutAStackTrace(@TempDir Path empty) {
        Path none = empty.resolve("none");
        CliTest.Result noStore = cli("status", "quickstart", "--store", none.toString());
        assertThat(noStore.exit()).isEqualTo(Main.NOT_FOUND);
        assertThat(noStore.err()).contains("no local store in " + none, "trainplane run SPEC");
        assertThat(Files.exists(none)).as("reading creates nothing").isFalse();

        CliTest.Result unknown = cli("watch", "nope", "--store", store.toString());
        assertThat(unknown.exit()).isEqualTo(Main.NOT_FOUND);
        assertThat(unknown.err()).contains("no run nope in the local store");

        CliTest.Result interval = cli("watch", "quickstart", "--store", store.toString(), "--interval", "0");
        assertThat(interval.exit()).isEqualTo(Main.INVALID_INPUT);
        assertThat(interval.err()).contains("--interval").doesNotContain("Exception");
        assertThat(cli("logs", "quickstart", "--store", store.toString(), "--tail", "0")
                        .err())
                .contains("--tail");
        assertThat(cli("status", "quickstart", "--local", "--table", "t").exit())
                .isEqualTo(Main.INVALID_INPUT);
        assertThat(cli("run", "examples/quickstart.json", "--store", "x", "--no-store")
                        .exit())
                .isEqualTo(Main.INVALID_INPUT);
    }
}
