package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.local.sim.ClusterFault;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Trouble on the cluster, simulated as a real cluster shows it: each run ends FAILED in the state
 * that noticed, with the error naming the cause, and nothing left behind.
 */
class ClusterFaultsTest {
    static final String URL = "https://data.example.com/cifar-10-python.tar.gz";

    static RunReport run(ClusterFault fault) throws IOException {
        return run(fault, 2);
    }

    /** The quickstart (two workers) with {@code workers} workers, one node each. */
    static RunReport run(ClusterFault fault, int workers) throws IOException {
        ObjectNode spec = (ObjectNode) Json.read(Files.readString(Path.of("examples/quickstart.json")));
        ((ObjectNode) spec.path("training")).put("workers", workers);
        ((ObjectNode) spec.path("cluster").path("nodeGroup")).put("nodes", workers);
        spec.putObject("data").put("source", "url").put("url", URL).put("sha256", "ab".repeat(32));
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            return new LocalRun(cloud, fault == null ? Faults.none() : Faults.onCluster(fault), e -> {})
                    .execute(RunSpecs.normalize(Json.write(spec)), "quickstart");
        }
    }

    static Stream<Arguments> faults() {
        return Stream.of(
                Arguments.of(
                        ClusterFault.UNSCHEDULABLE, "CheckTraining", "Unschedulable", "2 node(s) were unschedulable"),
                Arguments.of(ClusterFault.IMAGE_PULL, "CheckTraining", "ImagePullFailed", "pytorch/pytorch"),
                Arguments.of(
                        ClusterFault.CRASH_LOOP,
                        "CheckTraining",
                        "TrainingFailed",
                        "failed (exit code 1) with no node lost"),
                Arguments.of(ClusterFault.BAD_CHECKSUM, "CheckData", "DataChecksumMismatch", URL),
                Arguments.of(ClusterFault.LOW_ACCURACY, "CollectResults", "QualityGate", "accuracy"),
                Arguments.of(ClusterFault.JOB_DELETED, "CheckTraining", "JobDeleted", "was deleted"));
    }

    @ParameterizedTest(name = "--cluster-fault {0}")
    @MethodSource("faults")
    void theRunFailsNamingTheCauseAndLeavesNothing(ClusterFault fault, String state, String reason, String named)
            throws IOException {
        RunReport r = run(fault);

        assertThat(r.status()).isEqualTo("FAILED");
        assertThat(r.failedState()).isEqualTo(state);
        assertThat(r.error() + " " + r.cause()).contains(reason).contains(named).doesNotContain("\"apiVersion\"");
        assertThat(r.resources().created()).anyMatch(c -> c.startsWith("kubernetes:Job/"));
        assertThat(r.resources().remaining()).isEmpty();
    }

    @Test
    void aCrashOfTheTrainingFailsTheRunAfterOneAttempt() throws IOException {
        // One worker: torchrun has no restarts (training.maxRestarts 0), the pod fails, FailJob.
        RunReport r = run(ClusterFault.CRASH_LOOP, 1);

        // The user's exception first, found past torchrun's ChildFailedError.
        assertThat(r.cause())
                .startsWith("RuntimeError: simulated crash at start-up (--cluster-fault crash-loop)"
                        + " (at /workload/train.py:1 in <module>) — the training Job");
        assertThat(r.error() + " " + r.cause())
                // The log tail follows in the error's details (LocalStoreCommandsTest reads it in status).
                .contains("PodFailurePolicy")
                .contains("failed with exit code 1")
                .doesNotContain("CrashLoopBackOff")
                .doesNotContain("restarted");
        assertThat(r.metrics()).doesNotContainKey("restarts");
    }

    /**
     * Two workers: torchrun may restart its workers three times (training.maxRestarts defaults to
     * maxInterruptions, for a lost peer), and would run the crashing code again each time. No node
     * was lost, so the run fails after the first attempt with the user's exception.
     */
    @Test
    void aCrashWithSeveralWorkersFailsTheRunAfterOneAttemptNotAfterTorchrunsRestarts() throws IOException {
        RunReport r = run(ClusterFault.CRASH_LOOP, 2);

        assertThat(r.status()).isEqualTo("FAILED");
        assertThat(r.failedState()).isEqualTo("CheckTraining");
        assertThat(r.error()).isEqualTo("TrainingFailed");
        assertThat(r.cause())
                .startsWith("RuntimeError: simulated crash at start-up (--cluster-fault crash-loop)"
                        + " (at /workload/train.py:1 in <module>) — the training Job tp-quickstart-train: pod ")
                .contains("failed (exit code 1) with no node lost", "training.maxRestarts 3");
        // One attempt: torchrun's line for the failed worker once, and it never gave up (ChildFailedError).
        assertThat(r.logTail().split("\\] failed \\(exitcode: 1\\)", -1))
                .as(r.logTail())
                .hasSize(2);
        assertThat(r.logTail()).startsWith("Traceback (most recent call last):").doesNotContain("ChildFailedError");
        assertThat(r.metrics()).doesNotContainKey("restarts");
        assertThat(r.resources().remaining()).isEmpty();
    }

    @Test
    void withoutAFaultTheSameSpecSucceeds() throws IOException {
        RunReport r = run(null);

        assertThat(r.status()).as(r.cause()).isEqualTo("SUCCEEDED");
        assertThat(r.resources().remaining()).isEmpty();
    }
}
