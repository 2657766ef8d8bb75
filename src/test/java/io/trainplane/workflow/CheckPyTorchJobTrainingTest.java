package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * CheckTraining's looks at a training launched as a PyTorchJob ({@code training.launcher:
 * pytorchjob}), whose state is the training operator's last true condition.
 */
class CheckPyTorchJobTrainingTest {
    final StartedRun run = new StartedRun("check-pytorchjob", spec -> {
        ((ObjectNode) spec.path("training")).put("launcher", "pytorchjob");
        return spec;
    });
    final JobsOnCluster operator = new JobsOnCluster(run);
    final String jobName = run.names().trainingJob();

    @AfterEach
    void close() {
        run.close();
    }

    CheckTrainingStep step() {
        return new CheckTrainingStep(
                run.store,
                operator.access(),
                run.cloud.clock(),
                run.events("CheckTraining"),
                RunCostRecorder.withRegionPrices(
                        run.store, run.cloud.clock(), io.trainplane.aws.RunPrices.DEFAULT_REGION));
    }

    Instant now() {
        return run.cloud.clock().instant();
    }

    @Test
    void aRunningPyTorchJobIsNotDone() {
        operator.pyTorchJob(now().minus(Duration.ofMinutes(1)), null, "Running", "PyTorchJobRunning", "running");

        var look = step().run(run.state);

        assertThat(look.path("done").asBoolean()).isFalse();
        assertThat(look.path("waitSeconds").asInt()).isEqualTo(15);
    }

    @Test
    void aSucceededPyTorchJobIsDoneAndAnnounced() {
        Instant completed = now().minus(Duration.ofMinutes(2));
        operator.pyTorchJob(now().minus(Duration.ofMinutes(30)), completed, "Succeeded", "PyTorchJobSucceeded", "done");

        var look = step().run(run.state);

        assertThat(look.path("done").asBoolean()).isTrue();
        assertThat(run.cloud.bus().events())
                .filteredOn(e -> e.detailType().equals("Training Job Completed"))
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.detail().path("jobName").asText()).isEqualTo(jobName);
                    assertThat(e.detail().path("completionTime").asText()).isEqualTo(completed.toString());
                });
    }

    @Test
    void aFailedPyTorchJobEndsTheRunWithTheOperatorsReason() {
        String message = "PyTorchJob " + jobName + " is failed because 1 Worker replica(s) failed.";
        operator.pyTorchJob(now().minus(Duration.ofMinutes(30)), now(), "Failed", "PyTorchJobFailed", message);

        assertThatThrownBy(() -> step().run(run.state))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.TrainingFailed))
                .hasMessageContaining(
                        "the training PyTorchJob " + jobName + " failed (PyTorchJobFailed: " + message + ")");
        assertThat(run.cloud.bus().events()).noneMatch(e -> e.detailType().equals("Training Job Completed"));
    }
}
