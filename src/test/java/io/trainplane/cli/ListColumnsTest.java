package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.local.LocalDynamoDb;
import io.trainplane.runs.RunPhase;
import io.trainplane.runs.RunStatus;
import io.trainplane.runs.RunStore;
import io.trainplane.runs.RunsTable;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code list}'s last column is each spec's own gate metric; PHASE only for a run that goes on. */
class ListColumnsTest {
    static final String TABLE = "Runs-columns";
    LocalDynamoDb dynamo;

    @BeforeEach
    void start() {
        dynamo = LocalDynamoDb.start();
        RunsTable.create(dynamo.client(), TABLE);
    }

    @AfterEach
    void stop() {
        dynamo.close();
    }

    CliTest.Result list() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.commandLine(RunFixtures.clients(dynamo.client(), null, null))
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute("list", "--table", TABLE);
        return new CliTest.Result(exit, out.toString(), err.toString());
    }

    RunStore store(long seconds) {
        return new RunStore(dynamo.client(), TABLE, Clock.fixed(RunFixtures.T0.plusSeconds(seconds), ZoneOffset.UTC));
    }

    @Test
    void aPerplexityGateHeadsTheColumnAndAnEndedRunIsInNoPhase() {
        store(0).create("lm", "{\"runId\":\"lm\",\"evaluation\":{\"metric\":\"perplexity\",\"max\":40}}", null);
        store(0).update("lm", r -> r.withStatus(RunStatus.SUCCEEDED)
                .withPhase(RunPhase.CLEANUP)
                .withMetrics(Map.of("perplexity", 12.5, "accuracy", 0.3)));
        store(60).create("lm-2", "{\"runId\":\"lm-2\",\"evaluation\":{\"metric\":\"perplexity\"}}", null);
        store(60).update("lm-2", r -> r.withStatus(RunStatus.TRAINING).withPhase(RunPhase.TRAIN));

        CliTest.Result r = list();
        assertThat(r.exit()).as(r.err()).isZero();
        String header = r.out().lines().findFirst().orElseThrow();
        assertThat(header).contains("PERPLEXITY").doesNotContain("ACCURACY");
        String ended =
                r.out().lines().filter(l -> l.startsWith("lm ")).findFirst().orElseThrow();
        assertThat(ended).contains("12.5000").doesNotContain("cleanup", "0.3000");
        String going =
                r.out().lines().filter(l -> l.startsWith("lm-2 ")).findFirst().orElseThrow();
        assertThat(going).contains("TRAINING", "train");
    }

    @Test
    void runsGatedOnDifferentMetricsNameEachValue() {
        store(0).create("lm", "{\"runId\":\"lm\",\"evaluation\":{\"metric\":\"perplexity\"}}", null);
        store(0).update("lm", r -> r.withStatus(RunStatus.SUCCEEDED).withMetrics(Map.of("perplexity", 12.5)));
        store(60).create("cifar", "{\"runId\":\"cifar\"}", null);
        store(60).update("cifar", r -> r.withStatus(RunStatus.SUCCEEDED).withMetrics(Map.of("accuracy", 0.81)));

        CliTest.Result r = list();
        assertThat(r.out().lines().findFirst().orElseThrow()).contains("GATE METRIC");
        assertThat(r.out()).contains("perplexity 12.5000", "accuracy 0.8100");
    }
}
