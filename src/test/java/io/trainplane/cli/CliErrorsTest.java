package io.trainplane.cli;

import static io.trainplane.cli.CliTest.cli;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 20 item 5: errors a person can act on, and with --output json, a script can parse. */
class CliErrorsTest {
    @TempDir
    Path dir;

    /** The one JSON object stdout holds; fails when there is anything else. */
    static JsonNode onlyJson(CliTest.Result r) {
        assertThat(r.out().strip().lines()).hasSize(1);
        return Json.read(r.out());
    }

    @Test
    void anInvalidSpecWithJsonOutputIsOneObjectWithItsProblemsAndExitTwo() throws IOException {
        Path spec = Files.writeString(
                dir.resolve("spec.json"), "{\"cluster\": {\"mode\": \"existing\", \"name\": \"c\"}, \"trainig\": {}}");
        for (String command : new String[] {"validate", "plan", "run", "start"}) {
            CliTest.Result r = command.equals("start")
                    ? cli(command, spec.toString(), "--local", "--output", "json")
                    : cli(command, spec.toString(), "--output=json");
            assertThat(r.exit()).as(command).isEqualTo(Main.INVALID_INPUT);
            JsonNode error = onlyJson(r).path("error");
            assertThat(error.path("code").asText()).isEqualTo("InvalidSpec");
            assertThat(error.path("exitCode").asInt()).isEqualTo(Main.INVALID_INPUT);
            assertThat(error.path("problems").get(0).path("pointer").asText()).isEqualTo("/trainig");
            assertThat(error.path("problems").get(0).path("hint").asText()).contains("training");
        }
        // Text mode is unchanged: the problems on stderr, nothing on stdout.
        CliTest.Result text = cli("validate", spec.toString());
        assertThat(text.out()).isEmpty();
        assertThat(text.err()).contains("/trainig", "hint:");
    }

    /** The local stack's ceilings (template.yaml's defaults) refuse a spec past them before the run, exit 2. */
    @Test
    void aSpecPastTheStacksCeilingsIsRefusedWithExitTwoNamingTheParameter() throws IOException {
        var spec = (com.fasterxml.jackson.databind.node.ObjectNode)
                io.trainplane.core.Json.read(new String(validSpec(), java.nio.charset.StandardCharsets.UTF_8));
        ((com.fasterxml.jackson.databind.node.ObjectNode) spec.at("/cluster/nodeGroup")).put("nodes", 9);
        Path nine = Files.writeString(dir.resolve("nine.json"), io.trainplane.core.Json.write(spec));
        for (String[] args :
                List.of(new String[] {"run", nine.toString()}, new String[] {"start", nine.toString(), "--local"})) {
            CliTest.Result r = cli(args);
            assertThat(r.exit()).as(String.join(" ", args)).isEqualTo(Main.INVALID_INPUT);
            assertThat(r.err())
                    .contains("/cluster/nodeGroup/nodes")
                    .contains("MaxNodesPerRun is 8")
                    .doesNotContain("Exception");
        }
    }

    @Test
    void otherErrorsWithJsonOutputCarryTheirCodeAndTheSameExitCode() {
        CliTest.Result missing = cli("validate", dir.resolve("absent.json").toString(), "--output", "json");
        assertThat(missing.exit()).isEqualTo(Main.INVALID_INPUT);
        assertThat(onlyJson(missing).at("/error/code").asText()).isEqualTo("InvalidInput");
        assertThat(onlyJson(missing).at("/error/message").asText()).startsWith("no such file: ");

        CliTest.Result badOption = cli("status", "r1", "--local", "--output", "json", "--limit", "3");
        assertThat(badOption.exit()).isEqualTo(Main.INVALID_INPUT);
        assertThat(onlyJson(badOption).at("/error/code").asText()).isEqualTo("InvalidArguments");
        assertThat(badOption.err()).isEmpty();

        CliTest.Result noRun = cli("status", "no-such-run", "--store", dir.toString(), "--output", "json");
        assertThat(noRun.exit()).isEqualTo(Main.NOT_FOUND);
        assertThat(onlyJson(noRun).at("/error/code").asText()).isEqualTo("NotFound");
        assertThat(onlyJson(noRun).at("/error/exitCode").asInt()).isEqualTo(Main.NOT_FOUND);
    }

    @Test
    void errorsWithYamlOutputAreTheSameDocumentInYaml() throws IOException {
        CliTest.Result missing = cli("validate", dir.resolve("absent.json").toString(), "--output", "yaml");
        assertThat(missing.exit()).isEqualTo(Main.INVALID_INPUT);
        assertThat(missing.err()).isEmpty();
        JsonNode error = new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().readTree(missing.out());
        assertThat(error.at("/error/code").asText()).isEqualTo("InvalidInput");
        assertThat(error.at("/error/exitCode").asInt()).isEqualTo(Main.INVALID_INPUT);

        CliTest.Result badOption = cli("status", "r1", "--local", "--output=YAML", "--limit", "3");
        assertThat(badOption.exit()).isEqualTo(Main.INVALID_INPUT);
        assertThat(new com.fasterxml.jackson.dataformat.yaml.YAMLMapper()
                        .readTree(badOption.out())
                        .at("/error/code")
                        .asText())
                .isEqualTo("InvalidArguments");
    }

    @Test
    void aSpecWithAByteOrderMarkIsRefusedNamingTheFileAndTheFix() throws IOException {
        Path spec = dir.resolve("bom.json");
        Files.write(spec, concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, validSpec()));
        CliTest.Result r = cli("validate", spec.toString());
        assertThat(r.exit()).isEqualTo(Main.INVALID_INPUT);
        assertThat(r.err()).contains(spec.toString(), "byte order mark", "without BOM");
    }

    @Test
    void aSpecThatIsNotUtf8IsRefusedWithTheOffsetOfTheFirstBadByte() throws IOException {
        Path spec = dir.resolve("latin1.json");
        // "é" in ISO-8859-1 is the lone byte 0xE9, on the second line at byte 45.
        Files.write(spec, "{\"cluster\": {\"mode\": \"existing\",\n\"name\": \"caf\u00e9\"}}".getBytes("ISO-8859-1"));
        CliTest.Result r = cli("validate", spec.toString());
        assertThat(r.exit()).isEqualTo(Main.INVALID_INPUT);
        assertThat(r.err()).contains(spec + " is not UTF-8: byte 45 (0xE9, line 2)", "save the file as UTF-8");
        assertThat(r.err()).doesNotContain("Input length");
    }

    @Test
    void aSpecOverOneMegabyteIsRefusedWithoutReadingItAll() throws IOException {
        Path big = dir.resolve("big.json");
        Files.write(big, new byte[SpecInput.MAX_BYTES + 1]);
        CliTest.Result r = cli("plan", big.toString());
        assertThat(r.exit()).isEqualTo(Main.INVALID_INPUT);
        assertThat(r.err()).contains(big + " is over 1 MB", "named the spec");

        Path exactlyOneMegabyte = dir.resolve("padded.json");
        byte[] padded = validSpec();
        byte[] spaces = new byte[SpecInput.MAX_BYTES - padded.length];
        java.util.Arrays.fill(spaces, (byte) ' ');
        Files.write(exactlyOneMegabyte, concat(padded, spaces));
        assertThat(cli("validate", exactlyOneMegabyte.toString()).exit()).isZero();

        // An endless file: read up to the limit, never to an OutOfMemoryError.
        assumeTrue(Files.isReadable(Path.of("/dev/zero")));
        CliTest.Result zero = cli("validate", "/dev/zero", "--output", "json");
        assertThat(zero.exit()).isEqualTo(Main.INVALID_INPUT);
        assertThat(onlyJson(zero).at("/error/message").asText()).contains("/dev/zero is over 1 MB");
    }

    @Test
    void anInternalErrorExitsThreeWithOneLineAndTheStackTraceOnlyWhenAsked() {
        CliTest.Result r = withBrokenClock(Map.of(), "validate", "examples/quickstart.json");
        assertThat(r.exit()).isEqualTo(Main.INTERNAL_ERROR);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err())
                .contains(
                        "internal error in 'trainplane validate': IllegalStateException: the clock broke",
                        "at CliErrorsTest$1.instant(CliErrorsTest.java:",
                        "TRAINPLANE_DEBUG=1 prints the stack trace")
                .doesNotContain("\tat ");

        CliTest.Result json = withBrokenClock(Map.of(), "validate", "examples/quickstart.json", "--output", "json");
        assertThat(json.exit()).isEqualTo(Main.INTERNAL_ERROR);
        assertThat(onlyJson(json).at("/error/code").asText()).isEqualTo("InternalError");

        CliTest.Result debug =
                withBrokenClock(Map.of(ErrorHandler.DEBUG_VARIABLE, "1"), "validate", "examples/quickstart.json");
        assertThat(debug.exit()).isEqualTo(Main.INTERNAL_ERROR);
        assertThat(debug.err()).contains("java.lang.IllegalStateException: the clock broke", "\tat ");
    }

    @Test
    void aFailedStepShowsTheErrorsNameNotAJavaClass() {
        CliTest.Result r = cli(
                "run",
                "examples/quickstart.json",
                "--runtime",
                "simulated",
                "--cluster-fault",
                "crash-loop",
                "--no-store");
        assertThat(r.exit()).isEqualTo(Main.FAILED);
        assertThat(r.err()).contains("✗ CheckTraining: TrainingFailed").doesNotContain("io.trainplane");
        assertThat(r.out()).contains("error:        TrainingFailed: ");
    }

    @Test
    void helpListsEachOptionOnceAndOnlyWhatTheCommandTakes() {
        for (String command : new String[] {"status", "watch", "logs", "list", "cancel", "cleanup", "start"}) {
            String help = cli(command, "--help").out();
            for (String option : new String[] {"--stack=", "--local ", "--store=", "--output="}) {
                // An option's own line starts with six spaces (no short name); the synopsis's are indented deeper.
                long lines = help.lines()
                        .filter(line -> line.startsWith("      " + option))
                        .count();
                assertThat(lines).as(command + " " + option).isEqualTo(1);
            }
        }
        assertThat(cli("status", "--help").out()).contains("--table=NAME");
        // cancel and cleanup act on a stack's state machines: a table alone is not enough, and is not offered.
        for (String command : new String[] {"cancel", "cleanup"}) {
            assertThat(cli(command, "--help").out()).doesNotContain("--table");
            CliTest.Result r = cli(command, "r1", "--table", "runs");
            assertThat(r.exit()).isEqualTo(Main.INVALID_INPUT);
            assertThat(r.err())
                    .contains("Unknown option", "--stack=NAME | --local |", "--store=DIR) RUN")
                    .doesNotContain("--table=");
        }
    }

    private static CliTest.Result withBrokenClock(Map<String, String> environment, String... args) {
        Clock broken = new Clock() {
            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                throw new IllegalStateException("the clock broke");
            }
        };
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CliClients clients = RunFixtures.withClock(
                RunFixtures.withEnvironment(CliClients.standard(), environment, () -> {}), broken);
        int exit = Main.commandLine(clients)
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(args);
        return new CliTest.Result(exit, out.toString(), err.toString());
    }

    private static byte[] validSpec() throws IOException {
        return Files.readAllBytes(Path.of("examples/quickstart.json"));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
