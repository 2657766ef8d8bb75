package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.trainplane.TestTime;
import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.local.LocalCloud;
import io.trainplane.local.iam.StackTemplate;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The training pods' checkpoint sidecar: its manifest, what the scheduler counts of it, and the twin's sync without credentials. */
class CheckpointSyncTest {
    static final Instant T0 = Instant.parse("2026-11-24T00:00:00Z");

    @Test
    void theTrainingPodHasANativeSidecarThatSyncsOnlyCompleteCheckpointsFromPodZero() {
        Job job = new WorkloadManifests(OutputsPodTest.SPEC).trainingJob();
        var pod = job.getSpec().getTemplate().getSpec();
        assertThat(pod.getServiceAccountName()).isEqualTo("trainplane-run");
        assertThat(pod.getInitContainers()).hasSize(1);
        var sidecar = pod.getInitContainers().get(0);
        assertThat(sidecar.getName()).isEqualTo(WorkloadManifests.CHECKPOINT_SYNC);
        assertThat(sidecar.getRestartPolicy()).isEqualTo("Always");
        assertThat(sidecar.getImage()).isEqualTo(WorkloadManifests.AWS_CLI_IMAGE);
        assertThat(sidecar.getEnv())
                .anySatisfy(e -> assertThat(e.getValue()).isEqualTo("s3://trainplane-artifactsbucket/runs/tp-r1/"));
        String script = sidecar.getCommand().get(2);
        assertThat(script)
                .contains("JOB_COMPLETION_INDEX", "exec sleep infinity")
                .contains(
                        "aws s3 sync",
                        "--exclude '*'",
                        "checkpoint-*.pt.sha256",
                        "--include $name --include $name.sha256")
                .contains("checkpoints/", "trap 'sync_complete; exit 0' TERM", "sleep 60");
        // Only checkpoints whose digest exists are included: never checkpoint-*.pt by pattern, nor a .tmp.
        assertThat(script).doesNotContain("--include \"checkpoint-*.pt\"", ".tmp");
    }

    @Test
    void theSchedulerCountsSidecarsBesideTheContainersAndPlainInitContainersOnTheirOwn() {
        Job job = new WorkloadManifests(OutputsPodTest.SPEC).trainingJob();
        Pod pod =
                new PodBuilder().withSpec(job.getSpec().getTemplate().getSpec()).build();
        Map<String, BigDecimal> requests = Scheduler.requests(pod);
        BigDecimal trainer = pod.getSpec()
                .getContainers()
                .get(0)
                .getResources()
                .getRequests()
                .get("cpu")
                .getNumericalAmount();
        assertThat(requests.get("cpu")).isEqualByComparingTo(trainer.add(new BigDecimal("0.05")));

        // A plain init container bigger than all of them sets the request, with the sidecars before it.
        var big = new io.fabric8.kubernetes.api.model.ContainerBuilder()
                .withName("setup")
                .withNewResources()
                .addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity("100"))
                .endResources()
                .build();
        pod.getSpec()
                .setInitContainers(List.of(pod.getSpec().getInitContainers().get(0), big));
        assertThat(Scheduler.requests(pod).get("cpu")).isEqualByComparingTo("100.05");
    }

    @Test
    void withoutAnAssociationTheSidecarCannotSyncButTheTrainingGoesOn() {
        try (LocalCloud cloud = new LocalCloud(TestTime.START);
                SimulatedKubernetes kubernetes = new SimulatedKubernetes()) {
            SimulatedWorkload workload =
                    new SimulatedWorkload().storingOutputsIn(new PodS3(cloud.s3(), cloud.eks(), StackTemplate.local()));
            Job job = new WorkloadManifests(OutputsPodTest.SPEC).trainingJob();
            Pod pod = new PodBuilder(OutputsPodTest.podOf(job))
                    .editMetadata()
                    .addToAnnotations("trainplane.local/created", T0.toString())
                    .endMetadata()
                    .withNewStatus()
                    .withPhase("Running")
                    .withStartTime(T0.toString())
                    .endStatus()
                    .build();

            // Every worker of the Job runs (the rendezvous is complete): pod 0 and the others.
            List<Pod> workers = java.util.stream.IntStream.range(
                            0, job.getSpec().getCompletions())
                    .mapToObj(i -> i == 0
                            ? pod
                            : new PodBuilder(pod)
                                    .editMetadata()
                                    .withName(pod.getMetadata().getName() + "-" + i)
                                    .endMetadata()
                                    .build())
                    .toList();
            var outcome = workload.poll(job, pod, workers, kubernetes.admin(), Duration.ofMinutes(2))
                    .orElseThrow();

            assertThat(outcome.exitCode()).isZero();
            assertThat(workload.sidecarFailure(pod)).contains(PodS3.NO_CREDENTIALS);
            assertThat(cloud.calls().counts()).doesNotContainKey("s3:PutObject");
        }
    }

    @Test
    void theEpochsWrittenFollowTheClockAndStopAtTheLast() {
        Job job = new WorkloadManifests(OutputsPodTest.SPEC).trainingJob();
        Pod pod = new PodBuilder(OutputsPodTest.podOf(job))
                .editMetadata()
                .addToAnnotations("trainplane.local/created", T0.toString())
                .endMetadata()
                .withNewStatus()
                .withStartTime(T0.toString())
                .endStatus()
                .build();
        int epochs = SimulatedWorkload.epochs(job);
        SimulatedWorkload workload = new SimulatedWorkload();
        assertThat(workload.epochsDone(job, List.of(pod), T0.plus(SimulatedWorkload.EPOCH.multipliedBy(2))))
                .isEqualTo(Math.min(2, epochs));
        assertThat(workload.epochsDone(job, List.of(pod), T0.plus(SimulatedWorkload.EPOCH.multipliedBy(99))))
                .isEqualTo(epochs);
        assertThat(workload.epochsDone(job, List.of(pod), T0.plusSeconds(10))).isZero();
    }
}
