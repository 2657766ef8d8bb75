package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.core.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 36, item 6: a local run is in the local store while it goes, as a deployed run is in its
 * table: a second terminal lists it, shows its status, follows it to its end with {@code watch}
 * and {@code logs -f}, and cannot start another run of its runId.
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

    /**
     * A command of a second terminal, started on its own thread while the run goes: its pauses are
     * real (the interval asked for, recorded), and {@link #looked} opens at its first pause.
     */
    static final class Follower {
        final List<Duration> pauses = new CopyOnWriteArrayList<>();
        final CountDownLatch looked = new CountDownLatch(1);
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final FutureTask<Integer> exit;

        Follower(String... args) {
            CliClients base = CliClients.standard();
            CliClients clients = new CliClients() {
                @Override
                public software.amazon.awssdk.services.dynamodb.DynamoDbClient dynamoDb() {
                    return base.dynamoDb();
                }

                @Override
                public software.amazon.awssdk.services.cloudformation.CloudFormationClient cloudFormation() {
                    return base.cloudFormation();
                }

                @Override
                public software.amazon.awssdk.services.sfn.SfnClient sfn() {
                    return base.sfn();
                }

                @Override
                public software.amazon.awssdk.services.eks.EksClient eks() {
                    return base.eks();
                }

                @Override
                public software.amazon.awssdk.services.s3.S3Client s3() {
                    return base.s3();
                }

                @Override
                public String region() {
                    return base.region();
                }

                @Override
                public Map<String, String> environment() {
                    return Map.of();
                }

                @Override
                public java.time.Clock clock() {
                    return io.trainplane.TestTime.clock();
                }

                @Override
                public void sleep(Duration pause) throws InterruptedException {
                    pauses.add(pause);
                    looked.countDown();
                    Thread.sleep(pause);
                }
            };
            exit = new FutureTask<>(() -> {
                try {
                    return Main.commandLine(clients)
                            .setOut(new PrintWriter(out, true))
                            .setErr(new PrintWriter(err, true))
                            .execute(args);
                } finally {
                    looked.countDown();
                }
            });
            Thread.ofPlatform().name("follower " + args[0]).daemon().start(exit);
        }

        /** Waits (bounded) until the command has looked once, or ended. */
        void awaitFirstLook() {
            try {
                assertThat(looked.await(2, TimeUnit.MINUTES)).as("a first look").isTrue();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }

        int awaitExit() throws Exception {
            return exit.get(3, TimeUnit.MINUTES);
        }
    }

    @Test
    void aSecondTerminalSeesTheRunningRunFollowsItToItsEndAndCannotStartItsRunIdAgain() throws Exception {
        List<CliTest.Result> seen = new ArrayList<>();
        List<Follower> followers = new ArrayList<>();
        Hook err = new Hook("✓ StartTraining", () -> {
            seen.add(CliTest.cli("list", "--store", store.toString()));
            seen.add(CliTest.cli("status", "quickstart", "--store", store.toString(), "--output", "json"));
            seen.add(CliTest.cli("run", "examples/quickstart.json", "--store", store.toString()));
            followers.add(new Follower(
                    "watch", "quickstart", "--store", store.toString(), "--progress", "states", "--interval", "0.05"));
            followers.add(new Follower("logs", "quickstart", "--store", store.toString(), "-f", "--interval", "0.05"));
            // The run waits here until both have seen it going: what they print after is what it wrote since.
            followers.forEach(Follower::awaitFirstLook);
        });
        StringWriter out = new StringWriter();
        CliClients clients = RunFixtures.withClock(
                RunFixtures.withEnvironment(CliClients.standard(), Map.of(), () -> {}), io.trainplane.TestTime.clock());
        int exit = Main.commandLine(clients)
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute("run", "examples/quickstart.json", "--store", store.toString(), "--progress", "states");
        assertThat(exit).as(err.text.toString()).isZero();
        assertThat(seen).hasSize(3);
        assertThat(followers).hasSize(2);

        // watch, started while the run trained, saw it train, kept looking every --interval and
        // ended with the run, its outcome its exit code.
        Follower watch = followers.get(0);
        assertThat(watch.awaitExit()).as(watch.err.toString()).isZero();
        assertThat(watch.out.toString())
                .contains(
                        "status TRAINING (phase train)",
                        "▶ train",
                        "status SUCCEEDED",
                        "run quickstart SUCCEEDED after");
        assertThat(watch.err.toString()).isEmpty();
        assertThat(watch.pauses).isNotEmpty().containsOnly(Duration.ofMillis(50));

        // logs -f followed the training's first pod to its end: every line of its log, once, in order.
        Follower logs = followers.get(1);
        assertThat(logs.awaitExit()).as(logs.err.toString()).isZero();
        io.trainplane.local.PodLogs.Kept kept =
                io.trainplane.local.PodLogs.followed(store, "quickstart").orElseThrow();
        assertThat(kept.ended()).as(kept.phase()).isTrue();
        List<String> followed = logs.out.toString().lines().toList();
        int header = followed.indexOf("== pod " + kept.pod() + " (following; Ctrl-C stops) ==");
        assertThat(header).as(logs.out.toString()).isNotNegative();
        assertThat(kept.log().lines()).isNotEmpty();
        assertThat(followed.subList(header + 1, followed.size()))
                .as(logs.out.toString())
                .containsExactlyElementsOf(java.util.stream.Stream.concat(
                                kept.log().lines(), java.util.stream.Stream.of("(pod " + kept.pod() + " Succeeded)"))
                        .toList());
        assertThat(logs.pauses).isNotEmpty().containsOnly(Duration.ofMillis(50));

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
