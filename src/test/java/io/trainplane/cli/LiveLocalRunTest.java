package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.core.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 36, item 6: a local run is in the local store while it goes, as a deployed run is in its
 * table: a second terminal lists it, shows its status, and cannot start another run of its runId.
 */
class LiveLocalRunTest {
    @TempDir
    Path store;

    /** Stderr that runs {@code action} once, when {@code trigger} has been written: the run waits meanwhile. */
    static final class Hook extends Writer {
        final StringBuilder text = new StringBuilder();
        final String trigger;
        final Runnable action;
        boolean fired;

        Hook(String trigger, Runnable action) {
            this.trigger = trigger;
            this.action = action;
        }

        @Override
        public void write(char[] chars, int off, int len) {
            text.append(chars, off, len);
            if (!fired && text.indexOf(trigger) >= 0) {
                fired = true;
                action.run();
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    }

    @Test
    void aSecondTerminalSeesTheRunningRunAndCannotStartItsRunIdAgain() {
        List<CliTest.Result> seen = new ArrayList<>();
        Hook err = new Hook("✓ StartTraining", () -> {
            seen.add(CliTest.cli("list", "--store", store.toString()));
            seen.add(CliTest.cli("status", "quickstart", "--store", store.toString(), "--output", "json"));
            seen.add(CliTest.cli("run", "examples/quickstart.json", "--store", store.toString()));
            seen.add(CliTest.cli("watch", "quickstart", "--store", store.toString()));
        });
        StringWriter out = new StringWriter();
        CliClients clients = RunFixtures.withClock(
                RunFixtures.withEnvironment(CliClients.standard(), Map.of(), () -> {}), io.trainplane.TestTime.clock());
        int exit = Main.commandLine(clients)
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute("run", "examples/quickstart.json", "--store", store.toString(), "--progress", "states");
        assertThat(exit).as(err.text.toString()).isZero();
        assertThat(seen).hasSize(4);
        assertThat(seen.get(3).out()).contains("▶ train");
        assertThat(seen.get(3).err())
                .contains("is going on in another 'trainplane run'")
                .doesNotContain("ended before the run did");

        CliTest.Result list = seen.get(0);
        assertThat(list.exit()).as(list.err()).isZero();
        String row = list.out()
                .lines()
                .filter(l -> l.startsWith("quickstart "))
                .findFirst()
                .orElseThrow();
        assertThat(row).contains("TRAINING", "train");

        CliTest.Result status = seen.get(1);
        assertThat(status.exit()).as(status.err()).isZero();
        assertThat(Json.read(status.out()).path("status").asText()).isEqualTo("TRAINING");

        CliTest.Result again = seen.get(2);
        assertThat(again.exit()).isEqualTo(2);
        assertThat(again.err())
                .contains("ExecutionAlreadyExists: a local run 'quickstart' is going on")
                .contains("trainplane watch quickstart --store " + store);
        assertThat(again.out()).isEmpty();

        // Over, it is stored as it ended, and its runId is free again.
        CliTest.Result after = CliTest.cli("list", "--store", store.toString());
        assertThat(after.out()).contains("SUCCEEDED");
        assertThat(CliTest.cli("run", "examples/quickstart.json", "--store", store.toString())
                        .exit())
                .isZero();
    }
}
