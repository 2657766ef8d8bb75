package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.trainplane.core.TerminalException;
import io.trainplane.kubernetes.WorkloadManifests;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * CheckTraining while an Indexed Job of two workers runs and torchrun has restarts left (the
 * quickstart's maxRestarts, 3): a worker that failed with the user's code fails the run at once
 * when no node was lost; a failure beside a node that is not Ready, or a pod lost to its node, is
 * left to the interruptions, as the survivors of a lost peer fail the same way.
 */
class UserCrashTest {
    static final String CRASH =
            """
            Traceback (most recent call last):
              File "/workload/train.py", line 7, in <module>
                main()
            KeyError: 'labels'
            E1128 05:06:00.912000 1 torch/distributed/elastic/multiprocessing/api.py:1002] failed (exitcode: 1) \
            local_rank: 0 (pid: 41) of binary: /opt/conda/bin/python
            """;

    final StartedRun run = new StartedRun("user-crash");
    final JobsOnCluster cluster = new JobsOnCluster(run);
    final String jobName = run.names().trainingJob();
    final Instant started = run.cloud.clock().instant().minus(Duration.ofMinutes(1));

    @AfterEach
    void close() {
        run.close();
    }

    CheckTrainingStep step() {
        return new CheckTrainingStep(
                run.store,
                cluster.access(),
                run.cloud.clock(),
                run.events("CheckTraining"),
                RunCostRecorder.withRegionPrices(
                        run.store, run.cloud.clock(), io.trainplane.aws.RunPrices.DEFAULT_REGION));
    }

    void node(String name, boolean ready) {
        cluster.api()
                .nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .withNewStatus()
                        .addNewCondition()
                        .withType("Ready")
                        .withStatus(ready ? "True" : "Unknown")
                        .endCondition()
                        .endStatus()
                        .build())
                .create();
    }

    /** A training pod of worker {@code index} on {@code node}, as the Job controller makes it. */
    void worker(int index, String node, PodStatus status) {
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withName(jobName + "-" + index + "-abcde")
                .withNamespace(run.names().namespace())
                .withLabels(Map.of(
                        JobsOnCluster.JOB_NAME, jobName, "job-name", jobName, WorkloadManifests.COMPONENT, "training"))
                .withAnnotations(Map.of("batch.kubernetes.io/job-completion-index", Integer.toString(index)))
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .addNewContainer()
                .withName("trainer")
                .withImage("pytorch/pytorch:2.5.1")
                .endContainer()
                .endSpec()
                .build();
        Pod created = cluster.api()
                .pods()
                .inNamespace(run.names().namespace())
                .resource(pod)
                .create();
        created.setStatus(status);
        cluster.api()
                .pods()
                .inNamespace(run.names().namespace())
                .resource(created)
                .updateStatus();
    }

    void training(boolean secondNodeReady, PodStatus second) {
        training(secondNodeReady, second, CRASH);
    }

    void training(boolean secondNodeReady, PodStatus second, String log) {
        cluster.job(cluster.manifests().trainingJob(), JobsOnCluster.running(started, 2));
        node("node-a", true);
        node("node-b", secondNodeReady);
        worker(0, "node-a", JobsOnCluster.runningSince(started));
        worker(1, "node-b", second);
        cluster.podLogs(log);
    }

    @Test
    void aWorkerThatFailedWithTheUsersCodeAndNoNodeLostFailsTheRunAtOnce() {
        training(true, JobsOnCluster.runningSince(started));

        assertThatThrownBy(() -> step().run(run.state)).isInstanceOfSatisfying(TerminalException.class, e -> {
            assertThat(e.reason()).isEqualTo(io.trainplane.core.FailureReason.TrainingFailed);
            assertThat(e.getMessage())
                    .startsWith(
                            "TrainingFailed: KeyError: 'labels' (at /workload/train.py:7 in <module>) — the training Job "
                                    + jobName + ": pod " + jobName + "-")
                    .contains("failed (exit code 1) with no node lost", "training.maxRestarts 3")
                    .contains(FailureReport.TAIL_MARKER + "Traceback (most recent call last):");
        });
    }

    @Test
    void theSameFailureBesideANodeThatIsNotReadyIsLeftToTheInterruptions() {
        training(false, JobsOnCluster.runningSince(started));

        assertThat(step().run(run.state).path("done").asBoolean()).isFalse();
    }

    @Test
    void theSameFailureBesideAPodLostToItsNodeIsLeftToTheInterruptions() {
        training(
                true,
                new PodStatusBuilder(JobsOnCluster.runningSince(started))
                        .withPhase("Failed")
                        .addToConditions(new PodConditionBuilder()
                                .withType("DisruptionTarget")
                                .withStatus("True")
                                .withReason("DeletionByTaintManager")
                                .withLastTransitionTime(started.plusSeconds(30).toString())
                                .build())
                        .build());

        assertThat(step().run(run.state).path("done").asBoolean()).isFalse();
    }

    @Test
    void aCollectiveThatLostItsPeerIsLeftToTheInterruptions() {
        // What a survivor of a lost node raises while that node still reads Ready.
        training(
                true,
                JobsOnCluster.runningSince(started),
                CRASH.replace(
                        "KeyError: 'labels'",
                        "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer"
                                + " [10.0.34.11]:43210"));

        assertThat(step().run(run.state).path("done").asBoolean()).isFalse();
    }
}
