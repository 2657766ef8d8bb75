package io.trainplane.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The user's exception found past torchrun's own traceback, in logs torchrun 2.13 (CPU) wrote:
 * {@code torchrun --nproc-per-node=2 train.py} whose train.py imports a module that is not there, and
 * a one-process run whose {@code @record} entry point raises, restarted once (--max-restarts=1).
 */
class UserTracebackTest {
    @Test
    void theUsersExceptionIsFoundBeforeChildFailedError() throws IOException {
        UserTraceback t = UserTraceback.in(resource("module-not-found.log")).orElseThrow();

        assertThat(t.exception()).isEqualTo("ModuleNotFoundError: No module named 'nonexistent_module'");
        assertThat(t.frame()).isEqualTo("/tmp/tb/train.py:5 in main");
        assertThat(t.text()).startsWith("Traceback (most recent call last):").endsWith(t.exception());
        assertThat(t.text()).doesNotContain("ChildFailedError", "torch/distributed/run.py");
        assertThat(t.summary())
                .isEqualTo("ModuleNotFoundError: No module named 'nonexistent_module'"
                        + " (at /tmp/tb/train.py:5 in main)");
    }

    @Test
    void twoRanksTracebacksWrittenLineByLineTogetherStillGiveTheUsersException() {
        String log = String.join(
                "\n",
                "Traceback (most recent call last):",
                "Traceback (most recent call last):",
                "  File \"/workload/train.py\", line 3, in <module>",
                "  File \"/workload/train.py\", line 3, in <module>",
                "    import nonexistent_module",
                // The other rank's line, its indent lost to this one's output.
                "import nonexistent_module",
                "ModuleNotFoundError: No module named 'nonexistent_module'",
                "ModuleNotFoundError: No module named 'nonexistent_module'",
                "");
        UserTraceback t = UserTraceback.in(log).orElseThrow();

        assertThat(t.exception()).isEqualTo("ModuleNotFoundError: No module named 'nonexistent_module'");
        assertThat(t.frame()).isEqualTo("/workload/train.py:3 in <module>");
    }

    @Test
    void aRecordedEntryPointsTracebackIsTheUsersThoughItPassesThroughTorchsWrapper() throws IOException {
        UserTraceback t = UserTraceback.in(resource("record-restarted.log")).orElseThrow();

        assertThat(t.exception()).isEqualTo("ValueError: learning rate must be positive, got -0.1");
        assertThat(t.frame()).isEqualTo("/tmp/tb/train_record.py:6 in main");
    }

    @Test
    void torchrunsOwnTracebackAloneIsNoUsersException() throws IOException {
        String log = resource("module-not-found.log");
        String torchrunsOnly = log.substring(log.indexOf("E1128"));

        assertThat(UserTraceback.in(torchrunsOnly)).isEmpty();
        assertThat(UserTraceback.in("epoch 1/2 loss 2.1\n")).isEmpty();
        assertThat(UserTraceback.in(null)).isEmpty();
    }

    @Test
    void theLastOfSeveralIsTheOneThatEndedTheRun() {
        String log =
                """
                Traceback (most recent call last):
                  File "/workload/train.py", line 3, in <module>
                KeyError: 'lr'

                During handling of the above exception, another exception occurred:

                Traceback (most recent call last):
                  File "/workload/train.py", line 5, in <module>
                    raise SystemError("no learning rate")
                SystemError: no learning rate
                """;

        assertThat(UserTraceback.in(log).orElseThrow().exception()).isEqualTo("SystemError: no learning rate");
    }

    @Test
    void torchrunsRankPrefixesAreReadThrough() {
        String log =
                """
                [default0]:Traceback (most recent call last):
                [default0]:  File "/workload/train.py", line 9, in <module>
                [default0]:    torch.load(path)
                [default0]:FileNotFoundError: [Errno 2] No such file or directory: 'model.pt'
                """;

        UserTraceback t = UserTraceback.in(log).orElseThrow();
        assertThat(t.exception()).isEqualTo("FileNotFoundError: [Errno 2] No such file or directory: 'model.pt'");
        assertThat(t.frame()).isEqualTo("/workload/train.py:9 in <module>");
    }

    @Test
    void aTracebackCutOffBeforeItsExceptionIsNotOne() {
        assertThat(UserTraceback.in("Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\n"))
                .isEmpty();
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = UserTracebackTest.class.getResourceAsStream("/torchrun/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
