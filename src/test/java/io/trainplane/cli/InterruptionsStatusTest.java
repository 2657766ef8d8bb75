package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import io.trainplane.local.LocalDynamoDb;
import io.trainplane.runs.Interruption;
import io.trainplane.runs.RunOutputs;
import io.trainplane.runs.RunPhase;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunStore;
import io.trainplane.runs.RunsTable;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code status} (text and JSON) and {@code watch}'s view show a run's interruptions: how many, the
 * minutes of training lost and their cost, the epoch the training resumed from, and each one.
 */
class InterruptionsStatusTest {
    static final String TABLE = "Runs-interruptions";
    static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    static LocalDynamoDb dynamo;
    static RunStore store;

    /** Worker 1's spot node reclaimed 20 minutes in, replaced 6 minutes later; worker 0's node gone, not replaced yet. */
    static final Interruption SPOT = Interruption.seen(
                    "tp-run-int-train-1-abcde",
                    1,
                    "ip-10-0-1-57",
                    "TerminationByKubelet",
                    "Pod was terminated in response to imminent node shutdown.",
                    T0.plus(Duration.ofMinutes(20)),
                    T0.plus(Duration.ofMinutes(21)))
            .resumedAt(T0.plus(Duration.ofMinutes(26)), 0.68);

    static final Interruption GONE = Interruption.seen(
            "tp-run-int-train-0-fghij",
            0,
            "ip-10-0-1-10",
            "DeletionByPodGC",
            "PodGC: node no longer exists",
            T0.plus(Duration.ofMinutes(30)),
            T0.plus(Duration.ofMinutes(31)));

    @BeforeAll
    static void start() {
        dynamo = LocalDynamoDb.start();
        RunsTable.create(dynamo.client(), TABLE);
        store = new RunStore(dynamo.client(), TABLE, Clock.fixed(T0, ZoneOffset.UTC));
        store.create("run-int", "{\"runId\":\"run-int\"}", null);
        store.update("run-int", r -> r.withPhase(RunPhase.TRAIN)
                .withMetric("restarts", 2)
                .withMetric("resumedFromEpoch", 5)
                .withInterruption(SPOT)
                .withInterruption(GONE));
        store.create("run-calm", "{\"runId\":\"run-calm\",\"output\":{\"s3Uri\":\"s3://b/runs/run-calm/\"}}", null);
        store.update(
                "run-calm",
                r -> r.withOutputs(new RunOutputs(
                        "s3://b/runs/run-calm/",
                        "s3://b/runs/run-calm/model.pt",
                        MODEL_SHA256,
                        "checkpoint-epoch-2.pt",
                        MODEL_SHA256)));
        store.create(
                "run-resumed",
                "{\"runId\":\"run-resumed\",\"training\":{\"resumeFrom\":\"" + RESUMED_FROM + "\"}}",
                null);
    }

    static final String RESUMED_FROM = "s3://b/runs/run-calm/checkpoint-epoch-2.pt";

    @Test
    void statusSaysWhichCheckpointARunStartedFromInTextAndJson() {
        assertThat(cli("status", "run-resumed", "--table", TABLE).out())
                .contains("resumed:    from " + RESUMED_FROM + " (training.resumeFrom)");
        assertThat(Json.read(cli("status", "run-resumed", "--table", TABLE, "--output", "json")
                                .out())
                        .path("resumedFrom")
                        .asText())
                .isEqualTo(RESUMED_FROM);
        assertThat(cli("status", "run-calm", "--table", TABLE).out()).doesNotContain("resumed:");
        assertThat(Json.read(cli("status", "run-calm", "--table", TABLE, "--output", "json")
                                .out())
                        .path("resumedFrom")
                        .isNull())
                .isTrue();
    }

    static final String MODEL_SHA256 = "9a129038d9a00aed0cf6a7ea059ca50a813449061ab87848cf1a13eafdf33b2c";

    @Test
    void statusShowsWhereTheModelIsAndItsSha256InTextAndJson() {
        assertThat(cli("status", "run-calm", "--table", TABLE).out())
                .contains("output:     s3://b/runs/run-calm/")
                .contains("model:      s3://b/runs/run-calm/model.pt sha256 " + MODEL_SHA256)
                .contains("checkpoint: checkpoint-epoch-2.pt");
        JsonNode output = Json.read(cli("status", "run-calm", "--table", TABLE, "--output", "json")
                        .out())
                .path("output");
        assertThat(output.path("modelUri").asText()).isEqualTo("s3://b/runs/run-calm/model.pt");
        assertThat(output.path("modelSha256").asText()).isEqualTo(MODEL_SHA256);
        assertThat(output.path("s3Uri").asText()).isEqualTo("s3://b/runs/run-calm/");
        assertThat(cli("status", "run-int", "--table", TABLE).out()).doesNotContain("model:");
    }

    @AfterAll
    static void stop() {
        dynamo.close();
    }

    static CliTest.Result cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.commandLine(RunFixtures.clients(dynamo.client(), null, null))
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(args);
        return new CliTest.Result(exit, out.toString(), err.toString());
    }

    @Test
    void statusTellsHowOftenTheTrainingWasInterruptedWhatItLostAndWhereItResumed() {
        CliTest.Result r = cli("status", "run-int", "--table", TABLE);

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("interrupted: 2 times, 6.0 min of training lost ($0.07 at the plan's prices) so far,"
                        + " 1 not resumed yet, resumed from epoch 5")
                .contains("tp-run-int-train-1-abcde (worker 1) on ip-10-0-1-57: TerminationByKubelet")
                .contains("resumed 2026-03-01T10:26:00Z, 6.0 min lost, $0.07")
                .contains("tp-run-int-train-0-fghij (worker 0) on ip-10-0-1-10: DeletionByPodGC")
                .contains("not resumed yet");
        assertThat(cli("status", "run-calm", "--table", TABLE).out()).doesNotContain("interrupted");
    }

    @Test
    void statusAsJsonCarriesTheInterruptions() {
        JsonNode n = Json.read(cli("status", "run-int", "--table", TABLE, "--output", "json")
                        .out())
                .path("interruptions");

        assertThat(n.path("count").asInt()).isEqualTo(2);
        assertThat(n.path("lostMinutes").asDouble()).isEqualTo(6.0);
        assertThat(n.path("lostCost").asDouble()).isEqualTo(0.068);
        assertThat(n.path("resumedFromEpoch").asInt()).isEqualTo(5);
        assertThat(n.path("list")).hasSize(2);
        assertThat(n.path("list").get(0).path("reason").asText()).isEqualTo("TerminationByKubelet");
        assertThat(n.path("list").get(0).path("workerIndex").asInt()).isEqualTo(1);
        assertThat(n.path("list").get(1).path("resumedAt").isNull()).isTrue();

        JsonNode calm = Json.read(cli("status", "run-calm", "--table", TABLE, "--output", "json")
                        .out())
                .path("interruptions");
        assertThat(calm.path("count").asInt()).isZero();
        assertThat(calm.path("list")).isEmpty();
    }

    @Test
    void watchShowsEachInterruptionOnceAndItsResumption() {
        StringWriter text = new StringWriter();
        WatchCommand.View view = new WatchCommand.View(new PrintWriter(text, true), null);
        RunRecord run = store.get("run-int");

        view.show(run, List.of());
        view.show(run, List.of());
        view.outcome(run);

        String out = text.toString();
        assertThat(out.split("⚡ interrupted", -1)).as(out).hasSize(3);
        assertThat(out).contains("[0:20:00] ⚡ interrupted: 2026-03-01T10:20:00Z tp-run-int-train-1-abcde");
        assertThat(out.split("↻ ", -1)).as(out).hasSize(2);
        assertThat(out)
                .contains(
                        "[0:26:00] ↻ worker 1 (tp-run-int-train-1-abcde) resumed: 6.0 min lost, $0.07 at the plan's prices");
        assertThat(out).contains("interrupted: 2 times, 6.0 min of training lost");
    }
}
