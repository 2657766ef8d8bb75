package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * CheckJob's looks at the run's evaluation and data Jobs on a Kubernetes API server (the mock
 * server in CRUD mode): done, not yet, failed as what it is for (EvaluationFailed, DataFailed),
 * and the data Job's checksum exit code read as DataChecksumMismatch naming the address; a
 * container that keeps crashing ends the run with its previous log.
 */
class CheckJobStepTest {
    static final String URL = "https://data.example.com/cifar-10-python.tar.gz";
    static final String SHA256 = "ab".repeat(32);

    final StartedRun run = new StartedRun("check-job", spec -> {
        spec.putObject("data").put("source", "url").put("url", URL).put("sha256", SHA256);
        return spec;
    });
    final JobsOnCluster cluster = new JobsOnCluster(run);

    @AfterEach
    void close() {
        run.close();
    }

    CheckJobStep step() {
        return new CheckJobStep(run.store, cluster.access(), run.cloud.clock());
    }

    Instant now() {
        return run.cloud.clock().instant();
    }

    JsonNode input(String jobName, String purpose) {
        return ((ObjectNode) run.state.deepCopy()).put("jobName", jobName).put("purpose", purpose);
    }

    @Test
    void anEvaluationIsNotDoneWhileItRunsAndDoneOnceComplete() {
        String evaluation = run.names().evaluationJob();
        cluster.job(cluster.manifests().evaluationJob(), JobsOnCluster.running(now().minus(Duration.ofMinutes(5)), 1));

        JsonNode running = step().run(input(evaluation, "evaluation"));
        assertThat(running.path("done").asBoolean()).isFalse();
        assertThat(running.path("waitSeconds").asInt()).as("5 minutes in").isEqualTo(30);

        cluster.api()
                .batch()
                .v1()
                .jobs()
                .inNamespace(run.names().namespace())
                .withName(evaluation)
                .delete();
        cluster.job(
                cluster.manifests().evaluationJob(), JobsOnCluster.complete(now().minus(Duration.ofMinutes(5)), now()));
        JsonNode done = step().run(input(evaluation, "evaluation"));
        assertThat(done.path("done").asBoolean()).isTrue();
        assertThat(done.path("waitSeconds").asInt()).isZero();
    }

    @Test
    void aFailedEvaluationEndsTheRunAsEvaluationFailed() {
        String evaluation = run.names().evaluationJob();
        cluster.job(
                cluster.manifests().evaluationJob(),
                JobsOnCluster.failed(now(), "BackoffLimitExceeded", "backoff limit"));
        cluster.pod(
                evaluation,
                evaluation + "-xyz",
                JobsOnCluster.exited("Failed", 1, "FileNotFoundError: /shared/model.pt"));

        assertThatThrownBy(() -> step().run(input(evaluation, "evaluation")))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.EvaluationFailed))
                .hasMessageContaining(
                        "the evaluation Job " + evaluation + " failed (BackoffLimitExceeded: backoff limit)")
                .hasMessageContaining("FileNotFoundError: /shared/model.pt");
    }

    /** The user's exception leads, found in the pod's log past torchrun's own traceback (a log torchrun wrote). */
    @Test
    void aFailedEvaluationNamesTheUsersExceptionFirstWithItsTracebackBesideTheTail() throws Exception {
        String evaluation = run.names().evaluationJob();
        cluster.job(
                cluster.manifests().evaluationJob(),
                JobsOnCluster.failed(now(), "PodFailurePolicy", "exit code 1 matching FailJob rule"));
        cluster.pod(evaluation, evaluation + "-xyz", JobsOnCluster.exited("Failed", 1, null));
        try (var log = CheckJobStepTest.class.getResourceAsStream("/torchrun/module-not-found.log")) {
            cluster.podLogs(new String(log.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        }

        assertThatThrownBy(() -> step().run(input(evaluation, "evaluation")))
                .isInstanceOfSatisfying(TerminalException.class, e -> {
                    assertThat(e.reason()).isEqualTo(FailureReason.EvaluationFailed);
                    String raised =
                            "ModuleNotFoundError: No module named 'nonexistent_module' (at /tmp/tb/train.py:5 in"
                                    + " main) — the evaluation Job " + evaluation + " failed";
                    assertThat(e.getMessage()).contains(raised);
                    String tail = e.getMessage().substring(e.getMessage().indexOf(FailureReport.TAIL_MARKER));
                    // (this server serves the whole log for a tail: it holds the traceback already)
                    assertThat(tail)
                            .contains("import nonexistent_module", "Root Cause (first observed failure)")
                            .doesNotContain("…");
                });
    }

    @Test
    void theUsersExceptionIsReadFromTheTerminationMessageWhenTheLogIsGone() {
        String evaluation = run.names().evaluationJob();
        cluster.job(
                cluster.manifests().evaluationJob(),
                JobsOnCluster.failed(now(), "PodFailurePolicy", "exit code 1 matching FailJob rule"));
        cluster.pod(
                evaluation,
                evaluation + "-xyz",
                JobsOnCluster.exited(
                        "Failed",
                        1,
                        "Traceback (most recent call last):\n  File \"/workload/evaluate.py\", line 7, in <module>\n"
                                + "KeyError: 'accuracy'\n"));

        assertThatThrownBy(() -> step().run(input(evaluation, "evaluation")))
                .hasMessageContaining(
                        "EvaluationFailed: KeyError: 'accuracy' (at /workload/evaluate.py:7 in <module>)");
    }

    @Test
    void aDataJobExitingWithTheChecksumCodeEndsTheRunNamingTheAddressAndTheChecksum() {
        String data = run.names().dataJob();
        cluster.job(
                cluster.manifests().dataJob(), JobsOnCluster.failed(now(), "BackoffLimitExceeded", "backoff limit"));
        cluster.pod(
                data, data + "-xyz", JobsOnCluster.exited("Failed", CheckJobStep.CHECKSUM_MISMATCH, "sha256 mismatch"));

        assertThatThrownBy(() -> step().run(input(data, "data")))
                .isInstanceOfSatisfying(TerminalException.class, e -> assertThat(e.reason())
                        .isEqualTo(FailureReason.DataChecksumMismatch))
                .hasMessageContaining("the archive downloaded from " + URL)
                .hasMessageContaining("does not match data.sha256 " + SHA256)
                .hasMessageContaining("prepare.py exited 3");
    }

    @Test
    void aDataJobFailingOtherwiseEndsTheRunAsDataFailed() {
        String data = run.names().dataJob();
        cluster.job(
                cluster.manifests().dataJob(), JobsOnCluster.failed(now(), "BackoffLimitExceeded", "backoff limit"));
        cluster.pod(data, data + "-xyz", JobsOnCluster.exited("Failed", 1, "urllib.error.HTTPError: HTTP Error 404"));

        assertThatThrownBy(() -> step().run(input(data, "data")))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.DataFailed))
                .hasMessageContaining("HTTP Error 404");
    }

    @Test
    void aContainerThatKeepsCrashingEndsTheRunWithItsPreviousLog() {
        String evaluation = run.names().evaluationJob();
        cluster.job(cluster.manifests().evaluationJob(), JobsOnCluster.running(now().minus(Duration.ofMinutes(4)), 1));
        cluster.pod(evaluation, evaluation + "-xyz", JobsOnCluster.waiting("CrashLoopBackOff", "back-off 40s", 4));
        cluster.podLogs("loading model\nImportError: libcudart.so.12: cannot open shared object file\n");

        assertThatThrownBy(() -> step().run(input(evaluation, "evaluation")))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.CrashLoop))
                .hasMessageContaining("keeps crashing (restarted 4 times, CrashLoopBackOff)")
                .hasMessageContaining("ImportError: libcudart.so.12");
    }

    @Test
    void aJobDeletedWhileTheRunWaitsEndsTheRun() {
        assertThatThrownBy(() -> step().run(input(run.names().evaluationJob(), "evaluation")))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.JobDeleted))
                .hasMessageContaining("the evaluation Job");
    }
}
