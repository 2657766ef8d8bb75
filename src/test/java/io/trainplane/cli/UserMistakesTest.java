package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * Issue 36, item 5: each mistake of the user or of their environment ends with exit 2 (5 for AWS),
 * one sentence with the fix, no stack trace; each hint works when pasted.
 */
class UserMistakesTest {
    @TempDir
    Path dir;

    static CliTest.Result cli(String... args) {
        return CliTest.cli(args);
    }

    static void noTrace(CliTest.Result r) {
        assertThat(r.err() + r.out()).doesNotContain("\tat ", "Exception:", "internal error");
    }

    @Test
    void everyCommandPrintsTheVersion() {
        for (String command : new String[] {"run", "validate", "status", "list", "init", "plan"}) {
            CliTest.Result r = cli(command, "-V");
            assertThat(r.exit()).as(command).isZero();
            assertThat(r.out()).as(command).contains("trainplane 0.1.0");
        }
    }

    @Test
    void aMisspeltCommandSuggestsTheOneMeant() {
        CliTest.Result r = cli("rnu", "examples/quickstart.json");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("no command 'rnu'", "did you mean 'trainplane run'?");
        assertThat(cli("stauts", "quickstart", "--local").err()).contains("did you mean 'trainplane status'?");
        assertThat(cli("xyzzy").err()).contains("no command 'xyzzy'; the commands are validate, plan, run");
    }

    @Test
    void aSpecBeforeTheCommandIsPutAfterIt() {
        CliTest.Result r = cli("examples/quickstart.json", "run", "--no-store");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err())
                .contains("the command comes first, then the spec: trainplane run examples/quickstart.json --no-store")
                .doesNotContain("Missing required parameter");
    }

    @Test
    void anIntervalOfZeroIsRefusedWithTheRangeItBreaks() {
        for (String command : new String[] {"watch", "logs"}) {
            CliTest.Result r = cli(command, "quickstart", "--local", "--interval", "0", "-f");
            if ("watch".equals(command)) {
                r = cli(command, "quickstart", "--local", "--interval", "0");
            }
            assertThat(r.exit()).as(command).isEqualTo(2);
            assertThat(r.err())
                    .as(command)
                    .contains("more than 0 and at most 3600")
                    .doesNotContain("between 0");
        }
    }

    @Test
    void initIntoAPlaceThatCannotBeWrittenIsTheUsersToChange() throws IOException {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        CliTest.Result r = cli("init", file.resolve("starter").toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("cannot write the starter into " + file.resolve("starter"), "name a directory");
        noTrace(r);
    }

    @Test
    void anAuditLogInAMissingDirectoryIsRefusedBeforeTheRun() {
        Path log = dir.resolve("missing").resolve("audit.jsonl");
        CliTest.Result r = cli("run", "examples/quickstart.json", "--no-store", "--audit-log", log.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err())
                .contains("--audit-log", "does not exist", "mkdir -p")
                .doesNotContain("run quickstart");
        assertThat(r.out()).isEmpty();
        noTrace(r);
    }

    @Test
    @Timeout(120)
    void aCorruptedStoreSaysWhichFileAndHowToMoveItAside() throws IOException {
        Path store = Files.createDirectories(dir.resolve("store"));
        Files.write(
                store.resolve("runs.db"),
                "this is not a database, not even close. ".repeat(200).getBytes());
        for (String[] args : new String[][] {
            {"list", "--store", store.toString()},
            {"status", "quickstart", "--store", store.toString()},
            {"run", "examples/quickstart.json", "--store", store.toString()}
        }) {
            CliTest.Result r = cli(args);
            assertThat(r.exit()).as(args[0] + ": " + r.err()).isEqualTo(2);
            assertThat(r.err())
                    .as(args[0])
                    .contains(store.resolve("runs.db") + " is not a readable local store", "mv ")
                    .doesNotContain("run quickstart");
            assertThat(r.err().lines().count()).as(args[0]).isLessThanOrEqualTo(2);
            noTrace(r);
        }
    }

    @Test
    void theSummarysStatusHintNamesTheStoreAndNoneIsGivenWithoutOne() {
        Path store = dir.resolve("store");
        CliTest.Result stored = cli("run", "examples/quickstart.json", "--store", store.toString());
        assertThat(stored.exit()).as(stored.err()).isZero();
        assertThat(stored.out()).contains("trainplane status quickstart --store " + store + " shows each line");
        CliTest.Result kept = cli("status", "quickstart", "--store", store.toString());
        assertThat(kept.exit()).isZero();

        CliTest.Result notKept = cli("run", "examples/quickstart.json", "--no-store");
        assertThat(notKept.exit()).isZero();
        assertThat(notKept.out() + notKept.err()).doesNotContain("trainplane status");
    }

    @Test
    void aSpecStartRunRefusesExitsTwoWithItsProblemsAsValidateWould() throws IOException {
        Path spec = Files.writeString(
                dir.resolve("resume.json"),
                """
                {"runId": "resumes", "cluster": {"mode": "create", "nodeGroup": {"instanceType": "c5.2xlarge", "nodes": 2}},
                 "volume": {"type": "efs"},
                 "training": {"workers": 2, "epochs": 2, "resumeFrom": "no-such-run"},
                 "evaluation": {"minAccuracy": 0.1}}""");
        CliTest.Result r = cli("run", spec.toString(), "--no-store");
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err())
                .contains("error: the run spec is invalid; nothing was created.")
                .contains("/training/resumeFrom: no run 'no-such-run' is known to this stack")
                .contains("hint: give the ID of an earlier run");
        noTrace(r);
    }

    @CommandLine.Command(name = "fails")
    static final class Fails implements Callable<Integer> {
        static RuntimeException thrown;

        @Override
        public Integer call() {
            throw thrown;
        }
    }

    static CliTest.Result failing(RuntimeException e) {
        Fails.thrown = e;
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        ErrorHandler errors = new ErrorHandler(Map.of());
        int exit = new CommandLine(new Fails())
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .setExecutionExceptionHandler(errors)
                .setParameterExceptionHandler(errors::onParameterError)
                .execute();
        return new CliTest.Result(exit, out.toString(), err.toString());
    }

    @Test
    void noCredentialsIsOneSentenceWithHowToSetThem() {
        String chain = "Unable to load credentials from any of the providers in the chain AwsCredentialsProviderChain("
                + "credentialsProviders=[SystemPropertyCredentialsProvider(), EnvironmentVariableCredentialsProvider(),"
                + " WebIdentityTokenCredentialsProvider(), ProfileCredentialsProvider(profileName=default,"
                + " profileFile=ProfileFile(sections=[])), ContainerCredentialsProvider(), InstanceProfileCredentialsProvider()])"
                + " : [SystemPropertyCredentialsProvider(): Unable to load credentials from system settings. ...]";
        CliTest.Result r = failing(SdkClientException.builder().message(chain).build());
        assertThat(r.exit()).isEqualTo(Main.AWS_ERROR);
        assertThat(r.err())
                .startsWith("error: no AWS credentials found: set AWS_PROFILE")
                .contains("AWS_ACCESS_KEY_ID")
                .doesNotContain("Provider");
    }

    @Test
    void aMessageWithItsOwnErrorPrefixIsNotDoubled() {
        CliTest.Result r = failing(new UserInputException("Error: the thing is wrong"));
        assertThat(r.err()).isEqualTo("error: the thing is wrong" + System.lineSeparator());
    }
}
