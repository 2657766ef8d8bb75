package io.trainplane.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TermExit's shell, run for real: the wrapped command's own exit passes through; a SIGTERM to the
 * shell (what the kubelet sends the container's first process) reaches the command, which may
 * finish its checkpoint, and the container then ends with 143.
 */
class TermExitTest {
    @TempDir
    Path dir;

    Process start(List<String> command) throws Exception {
        return new ProcessBuilder(TermExit.wrap(command))
                .redirectErrorStream(true)
                .start();
    }

    @Test
    void theCommandsOwnExitCodePassesThrough() throws Exception {
        Process p = start(List.of("sh", "-c", "exit 7"));
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(7);

        Process ok = start(List.of("true"));
        assertThat(ok.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(ok.exitValue()).isZero();
    }

    @Test
    void aSigtermReachesTheCommandWhichFinishesItsCheckpointAndTheContainerEndsWith143() throws Exception {
        Path started = dir.resolve("started");
        Path checkpoint = dir.resolve("checkpoint");
        // Like torchrun: on SIGTERM it writes its checkpoint, then ends with 1 (SignalException).
        Process p = start(List.of(
                "sh",
                "-c",
                "trap 'sleep 1; touch " + checkpoint + "; exit 1' TERM; touch " + started
                        + "; while :; do sleep 0.1; done"));
        for (int i = 0; i < 100 && !Files.exists(started); i++) {
            Thread.sleep(50);
        }
        assertThat(started).exists();

        p.toHandle().destroy(); // SIGTERM, to the shell only, as the kubelet sends it to PID 1

        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(TermExit.EXIT_CODE);
        assertThat(checkpoint).as("written before the container ended").exists();
    }

    @Test
    void unwrapGivesBackTheCommandAndNothingForOthers() {
        List<String> torchrun = List.of("torchrun", "/workload/train.py", "--epochs", "3");
        assertThat(TermExit.unwrap(TermExit.wrap(torchrun))).contains(torchrun);
        assertThat(TermExit.unwrap(torchrun)).isEmpty();
        assertThat(TermExit.unwrap(List.of("/bin/sh", "-c", "torchrun \"$@\"", "x")))
                .isEmpty();
    }
}
