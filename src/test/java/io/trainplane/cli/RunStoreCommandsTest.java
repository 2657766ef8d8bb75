package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import io.trainplane.local.LocalDynamoDb;
import io.trainplane.runs.RunsTable;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code status} and {@code list} against the twin's DynamoDB, the table named with {@code --table}. */
class RunStoreCommandsTest {
    static LocalDynamoDb dynamo;
    static final String TABLE = "Runs-cli";

    @BeforeAll
    static void start() {
        dynamo = LocalDynamoDb.start();
        RunsTable.create(dynamo.client(), TABLE);
        RunFixtures.populate(dynamo.client(), TABLE);
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
    void statusShowsTimelineMetricsResourcesAndError() {
        CliTest.Result ok = cli("status", "run-ok", "--table", TABLE);
        assertThat(ok.exit()).as(ok.err()).isZero();
        assertThat(ok.out())
                .contains(
                        "SUCCEEDED", "CreateCluster", "10m00s", "accuracy = 0.81", "deleted:    eks:cluster/tp-run-ok");

        CliTest.Result bad = cli("status", "run-bad", "--table", TABLE);
        assertThat(bad.out()).contains("FAILED", "CheckNodegroup", "InsufficientCapacity: no g5.2xlarge", "| line 2");
    }

    @Test
    void statusAsJson() {
        CliTest.Result r = cli("status", "run-ok", "--table", TABLE, "--output", "json");
        JsonNode n = Json.read(r.out());
        assertThat(n.path("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(n.path("steps")).hasSize(2);
        assertThat(n.path("steps").get(1).path("durationSeconds").asDouble()).isEqualTo(600.0);
        assertThat(n.path("metrics").path("accuracy").asDouble()).isEqualTo(0.81);
        assertThat(n.path("error").isNull()).isTrue();
    }

    @Test
    void anUnknownRunExitsFour() {
        CliTest.Result r = cli("status", "nope", "--table", TABLE);
        assertThat(r.exit()).isEqualTo(Main.NOT_FOUND);
        assertThat(r.err()).contains("no run nope");
    }

    @Test
    void listNewestFirstAndByStatus() {
        CliTest.Result all = cli("list", "--table", TABLE, "--output", "json");
        assertThat(all.exit()).as(all.err()).isZero();
        JsonNode runs = Json.read(all.out());
        assertThat(runs).hasSize(2);
        assertThat(runs.get(0).path("runId").asText()).isEqualTo("run-bad");

        CliTest.Result failed = cli("list", "--table", TABLE, "--status", "failed");
        assertThat(failed.out()).contains("run-bad").doesNotContain("run-ok");
        assertThat(cli("list", "--table", TABLE, "--status", "CANCELLED").out()).contains("no runs");
    }

    @Test
    void stackOrTableIsRequired() {
        assertThat(cli("list").exit()).isEqualTo(Main.INVALID_INPUT);
        assertThat(cli("status", "run-ok", "--stack", "s", "--table", "t").exit())
                .isEqualTo(Main.INVALID_INPUT);
    }
}
