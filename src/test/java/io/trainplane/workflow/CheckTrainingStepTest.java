package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.InstancePrices;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.local.sim.SimulatedEventBus;
import io.trainplane.runs.Interruption;
import io.trainplane.spec.RunSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * CheckTraining's looks at the run's training on a Kubernetes API server (the mock server in CRUD
 * mode, the Job and its pods written as the controllers write them): not done yet, with a wait
 * that follows the training's reported progress; done, announced once; failed, with the failed
 * pod's last lines; and what the pods show (an image that cannot be pulled, pods that cannot be
 * scheduled) ending the run before the Job would.
 */
class CheckTrainingStepTest {
    final StartedRun run = new StartedRun("check-training");
    final JobsOnCluster cluster = new JobsOnCluster(run);
    final String jobName = run.names().trainingJob();

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

    Instant now() {
        return run.cloud.clock().instant();
    }

    List<SimulatedEventBus.Event> completions() {
        return run.cloud.bus().events().stream()
                .filter(e -> e.detailType().equals("Training Job Completed"))
                .toList();
    }

    @Test
    void aTrainingJustStartedIsLookedAtAgainSoon() {
        cluster.job(cluster.manifests().trainingJob(), JobsOnCluster.running(now().minus(Duration.ofMinutes(1)), 2));

        JsonNode look = step().run(run.state);

        assertThat(look.path("done").asBoolean()).isFalse();
        assertThat(look.path("waitSeconds").asInt()).isEqualTo(15);
        assertThat(completions()).isEmpty();
    }

    @Test
    void aLongTrainingIsLookedAtAgainAfterAThirdOfTheTimeItsProgressLeaves() {
        Instant started = now().minus(Duration.ofMinutes(30));
        cluster.job(cluster.manifests().trainingJob(), JobsOnCluster.running(started, 2));
        cluster.pod(jobName, jobName + "-0-abcde", JobsOnCluster.runningSince(started));
        cluster.podLogs("epoch 1/10 loss 2.1\nepoch 2/10 loss 1.7\nepoch 3/10 loss 1.4\n");

        JsonNode look = step().run(run.state);

        // 3 epochs in 30 minutes: 7 left take 70 minutes; a third of that is 1400 s.
        assertThat(look.path("done").asBoolean()).isFalse();
        assertThat(look.path("waitSeconds").asInt()).isEqualTo(1400);

        cluster.podLogs("");
        assertThat(step().run(run.state).path("waitSeconds").asInt())
                .as("without progress")
                .isEqualTo(JobPolling.MAX_WAIT_SECONDS);
    }

    @Test
    void aCompletedTrainingIsDoneAndAnnounced() {
        Instant started = now().minus(Duration.ofMinutes(40));
        Instant completed = now().minus(Duration.ofMinutes(1));
        cluster.job(cluster.manifests().trainingJob(), JobsOnCluster.complete(started, completed));

        JsonNode look = step().run(run.state);

        assertThat(look.path("done").asBoolean()).isTrue();
        assertThat(look.path("waitSeconds").asInt()).isZero();
        assertThat(completions()).singleElement().satisfies(e -> {
            assertThat(e.detail().path("runId").asText()).isEqualTo(run.runId);
            assertThat(e.detail().path("jobName").asText()).isEqualTo(jobName);
            assertThat(e.detail().path("status").asText()).isEqualTo("Succeeded");
            assertThat(e.detail().path("startTime").asText()).isEqualTo(started.toString());
            assertThat(e.detail().path("completionTime").asText()).isEqualTo(completed.toString());
        });
        assertThat(run.record().lostEvents()).isEmpty();
    }

    @Test
    void aCheckpointSidecarThatCannotSyncIsAWarningInTheRecordNotAFailure() {
        Instant started = now().minus(Duration.ofMinutes(40));
        cluster.job(
                cluster.manifests().trainingJob(), JobsOnCluster.complete(started, now().minus(Duration.ofMinutes(1))));
        var status = JobsOnCluster.runningSince(started);
        status.setPhase("Succeeded");
        // As the kubelet shows a sidecar (restartPolicy Always) that failed and was restarted.
        status.setInitContainerStatuses(List.of(new io.fabric8.kubernetes.api.model.ContainerStatusBuilder()
                .withName(io.trainplane.kubernetes.WorkloadManifests.CHECKPOINT_SYNC)
                .withRestartCount(3)
                .withNewLastState()
                .withNewTerminated()
                .withExitCode(255)
                .withMessage(io.trainplane.local.sim.PodS3.NO_CREDENTIALS + "\n")
                .endTerminated()
                .endLastState()
                .build()));
        cluster.pod(jobName, jobName + "-0-abcde", status);

        JsonNode look = step().run(run.state);

        assertThat(look.path("done").asBoolean()).isTrue();
        assertThat(completions()).hasSize(1);
        assertThat(run.record().resources().get(io.trainplane.runs.RunResources.CHECKPOINT_SYNC_FAILED))
                .contains(io.trainplane.local.sim.PodS3.NO_CREDENTIALS);
    }

    @Test
    void aFailedTrainingEndsTheRunWithTheFailedPodsLastLines() {
        cluster.job(
                cluster.manifests().trainingJob(),
                JobsOnCluster.failed(
                        now().minus(Duration.ofMinutes(5)),
                        "BackoffLimitExceeded",
                        "Job has reached the specified backoff limit"));
        cluster.pod(
                jobName,
                jobName + "-0-abcde",
                JobsOnCluster.exited(
                        "Failed",
                        1,
                        "Traceback (most recent call last):\n  File \"train.py\", line 80\nRuntimeError: CUDA out of memory"));

        assertThatThrownBy(() -> step().run(run.state))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.TrainingFailed))
                .hasMessageContaining("the training Job " + jobName + " failed")
                .hasMessageContaining("BackoffLimitExceeded: Job has reached the specified backoff limit")
                .hasMessageContaining("RuntimeError: CUDA out of memory");
        assertThat(completions()).isEmpty();
    }

    /** A pod the pod garbage collector failed when its node went. */
    static io.fabric8.kubernetes.api.model.PodStatus lostWithItsNode(Instant at) {
        var status = JobsOnCluster.runningSince(at.minus(Duration.ofMinutes(5)));
        status.setPhase("Failed");
        var conditions = new java.util.ArrayList<>(status.getConditions() == null ? List.of() : status.getConditions());
        conditions.add(new io.fabric8.kubernetes.api.model.PodConditionBuilder()
                .withType("DisruptionTarget")
                .withStatus("True")
                .withReason("DeletionByPodGC")
                .withMessage("PodGC: node no longer exists")
                .withLastTransitionTime(at.toString())
                .build());
        status.setConditions(conditions);
        return status;
    }

    @Test
    void podsLostToTheirNodesAreCountedAsRestartsAndPastTheLimitFailTheRun() {
        Instant started = now().minus(Duration.ofMinutes(20));
        cluster.job(cluster.manifests().trainingJob(), JobsOnCluster.running(started, 2));
        cluster.pod(jobName, jobName + "-1-abcde", lostWithItsNode(now().minus(Duration.ofMinutes(4))));
        cluster.pod(jobName, jobName + "-1-fghij", JobsOnCluster.runningSince(now().minus(Duration.ofMinutes(1))));

        assertThat(step().run(run.state).path("done").asBoolean()).isFalse();
        assertThat(run.record().metrics()).containsEntry("restarts", 1.0);

        int allowed = RunContext.from(run.state).spec().training().maxInterruptions();
        for (int i = 0; i < allowed; i++) {
            cluster.pod(jobName, jobName + "-0-lost" + i, lostWithItsNode(now().minus(Duration.ofMinutes(2))));
        }
        assertThatThrownBy(() -> step().run(run.state))
                .isInstanceOfSatisfying(TerminalException.class, e -> assertThat(e.reason())
                        .isEqualTo(FailureReason.TooManyInterruptions))
                .hasMessageContaining("training was interrupted " + (allowed + 1)
                        + " times (training.maxInterruptions is " + allowed + ")")
                .hasMessageContaining(jobName + "-1-abcde (DeletionByPodGC: PodGC: node no longer exists)")
                .hasMessageContaining("raise training.maxInterruptions");
        assertThat(run.record().metrics()).containsEntry("restarts", (double) allowed + 1);
    }

    List<SimulatedEventBus.Event> interruptionEvents() {
        return run.cloud.bus().events().stream()
                .filter(e -> e.detailType().equals("Training Interrupted"))
                .toList();
    }

    @Test
    void anInterruptionIsRecordedAndAnnouncedOnceThenCompletedWithTheMinutesLostAndTheirCost() {
        Instant started = now().minus(Duration.ofMinutes(30));
        Instant lostAt = now().minus(Duration.ofMinutes(4));
        cluster.job(cluster.manifests().trainingJob(), JobsOnCluster.running(started, 2));
        cluster.pod(jobName, jobName + "-0-abcde", 0, "ip-10-0-1-10", JobsOnCluster.runningSince(started));
        cluster.pod(jobName, jobName + "-1-abcde", 1, "ip-10-0-1-57", lostWithItsNode(lostAt));

        step().run(run.state);
        step().run(run.state);

        Interruption seen = run.record().interruptions().getFirst();
        assertThat(run.record().interruptions()).hasSize(1);
        assertThat(seen.pod()).isEqualTo(jobName + "-1-abcde");
        assertThat(seen.index()).isEqualTo(1);
        assertThat(seen.node()).isEqualTo("ip-10-0-1-57");
        assertThat(seen.reason()).isEqualTo("DeletionByPodGC");
        assertThat(seen.message()).isEqualTo("PodGC: node no longer exists");
        assertThat(seen.at()).isEqualTo(lostAt);
        assertThat(seen.resumed()).as("no replacement yet").isFalse();
        assertThat(seen.lostMinutes()).isNull();
        assertThat(interruptionEvents()).singleElement().satisfies(e -> {
            assertThat(e.detail().path("pod").asText()).isEqualTo(jobName + "-1-abcde");
            assertThat(e.detail().path("workerIndex").asInt()).isEqualTo(1);
            assertThat(e.detail().path("node").asText()).isEqualTo("ip-10-0-1-57");
            assertThat(e.detail().path("reason").asText()).isEqualTo("DeletionByPodGC");
            assertThat(e.detail().path("interruptedAt").asText()).isEqualTo(lostAt.toString());
            assertThat(e.detail().path("interruptions").asInt()).isEqualTo(1);
        });

        // The replacement of worker 1 starts 7 minutes after its node went.
        Instant resumed = lostAt.plus(Duration.ofMinutes(7));
        run.advance(Duration.ofMinutes(5));
        cluster.pod(jobName, jobName + "-1-fghij", 1, "ip-10-0-1-99", JobsOnCluster.runningSince(resumed));
        step().run(run.state);

        Interruption done = run.record().interruptions().getFirst();
        RunSpec spec = RunContext.from(run.state).spec();
        double groupPerHour = InstancePrices.load(io.trainplane.aws.RunPrices.DEFAULT_REGION)
                        .perHour(spec.cluster().nodeGroup().instanceType())
                        .orElseThrow()
                * spec.cluster().nodeGroup().nodes();
        assertThat(done.resumedAt()).isEqualTo(resumed);
        assertThat(done.lostMinutes()).isEqualTo(7.0);
        assertThat(done.lostCost())
                .isCloseTo(groupPerHour * 7 / 60, within(1e-9))
                .isPositive();
        assertThat(done.seenAt()).as("first seen, not re-seen").isEqualTo(seen.seenAt());

        long version = run.record().version();
        step().run(run.state);
        assertThat(run.record().version()).as("nothing new: nothing written").isEqualTo(version);
        assertThat(run.record().interruptions()).containsExactly(done);
        assertThat(run.record().metrics()).containsEntry("restarts", 1.0);
        assertThat(interruptionEvents()).hasSize(1);

        // A second loss, of worker 0: its own event, counting 2.
        cluster.pod(jobName, jobName + "-0-lost", 0, "ip-10-0-1-10", lostWithItsNode(now()));
        step().run(run.state);
        assertThat(run.record().interruptions())
                .extracting(Interruption::pod)
                .containsExactly(jobName + "-1-abcde", jobName + "-0-lost");
        assertThat(interruptionEvents()).hasSize(2);
        assertThat(interruptionEvents().get(1).detail().path("interruptions").asInt())
                .isEqualTo(2);
    }

    /** The Region's prices without those of t3.medium: a type a table may not list. */
    private static io.trainplane.aws.RunPrices withoutT3Medium() {
        var prices = io.trainplane.aws.RunPrices.forRegion(io.trainplane.aws.RunPrices.DEFAULT_REGION);
        var onDemand = new java.util.HashMap<>(prices.instances().onDemandPerHour());
        var spot = new java.util.HashMap<>(prices.instances().spotPerHour());
        onDemand.remove("t3.medium");
        spot.remove("t3.medium");
        return prices.withInstances(
                new io.trainplane.aws.InstancePrices(prices.region(), prices.date(), onDemand, spot));
    }

    @Test
    void anInterruptionOnAnInstanceTypeThePriceTableDoesNotListHasMinutesButNoCost() {
        StartedRun other = new StartedRun("check-training-unpriced", spec -> {
            ((com.fasterxml.jackson.databind.node.ObjectNode)
                            spec.path("cluster").path("nodeGroup"))
                    .put("instanceType", "t3.medium") // a known shape, taken out of the price table below
                    .put("nodes", spec.path("training").path("workers").asInt());
            ((com.fasterxml.jackson.databind.node.ObjectNode) spec.path("training"))
                    .put("cpu", "1")
                    .put("memory", "1Gi");
            return spec;
        });
        try (other) {
            JobsOnCluster otherCluster = new JobsOnCluster(other);
            String job = other.names().trainingJob();
            Instant now = other.cloud.clock().instant();
            otherCluster.job(otherCluster.manifests().trainingJob(), JobsOnCluster.running(now, 2));
            otherCluster.pod(
                    job, job + "-1-abcde", 1, "ip-10-0-1-57", lostWithItsNode(now.minus(Duration.ofMinutes(3))));
            otherCluster.pod(job, job + "-1-fghij", 1, "ip-10-0-1-99", JobsOnCluster.runningSince(now));

            new CheckTrainingStep(
                            other.store,
                            otherCluster.access(),
                            other.cloud.clock(),
                            other.events("CheckTraining"),
                            new RunCostRecorder(other.store, other.cloud.clock(), () -> withoutT3Medium()))
                    .run(other.state);

            assertThat(other.record().interruptions()).singleElement().satisfies(i -> {
                assertThat(i.lostMinutes()).isEqualTo(3.0);
                assertThat(i.lostCost()).isNull();
            });
        }
    }

    @Test
    void aResumedTrainingsReportIsKeptInTheRecordsMetrics() {
        Instant started = now().minus(Duration.ofMinutes(40));
        cluster.job(cluster.manifests().trainingJob(), JobsOnCluster.complete(started, now()));
        cluster.pod(
                jobName,
                jobName + "-0-abcde",
                JobsOnCluster.exited("Succeeded", 0, "{\"restarts\": 1, \"resumedFromEpoch\": 4}"));
        cluster.pod(jobName, jobName + "-1-abcde", lostWithItsNode(now().minus(Duration.ofMinutes(20))));
        cluster.pod(jobName, jobName + "-1-fghij", JobsOnCluster.exited("Succeeded", 0, "not json"));

        assertThat(step().run(run.state).path("done").asBoolean()).isTrue();

        assertThat(run.record().metrics()).containsEntry("restarts", 1.0).containsEntry("resumedFromEpoch", 4.0);
    }

    @Test
    void anImageThatCannotBePulledEndsTheRunWhileTheJobStillRuns() {
        cluster.job(cluster.manifests().trainingJob(), JobsOnCluster.running(now().minus(Duration.ofMinutes(3)), 2));
        cluster.pod(
                jobName,
                jobName + "-0-abcde",
                JobsOnCluster.waiting("ImagePullBackOff", "Back-off pulling image \"pytorch/pytorch:2.5.1\"", 0));

        assertThatThrownBy(() -> step().run(run.state))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.ImagePullFailed))
                .hasMessageContaining("pytorch/pytorch:2.5.1")
                .hasMessageContaining("check the image (workload.image, or training.image)");
    }

    @Test
    void podsUnscheduledPastThePendingTimeoutEndTheRun() {
        cluster.job(cluster.manifests().trainingJob(), JobsOnCluster.running(now().minus(Duration.ofMinutes(20)), 2));
        String message = "0/2 nodes are available: 2 Insufficient cpu.";
        cluster.pod(
                jobName, jobName + "-0-abcde", JobsOnCluster.unscheduled(now().minus(Duration.ofMinutes(5)), message));

        assertThat(step().run(run.state).path("done").asBoolean())
                .as("5 minutes unscheduled: still waiting")
                .isFalse();

        run.advance(JobWatch.pendingTimeout());
        assertThatThrownBy(() -> step().run(run.state))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.Unschedulable))
                .hasMessageContaining(message);
    }

    @Test
    void aTrainingJobDeletedWhileTheRunWaitsEndsTheRun() {
        assertThatThrownBy(() -> step().run(run.state))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.JobDeleted))
                .hasMessageContaining(run.names().namespace() + "/" + jobName);
    }
}
