package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.PodFailurePolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.trainplane.kubernetes.JobPods;
import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.local.asl.SimulatedClock;
import io.trainplane.local.iam.Authorizer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The simulated Job controller honours a Job's podFailurePolicy as Kubernetes does
 * (https://kubernetes.io/docs/concepts/workloads/controllers/job/#pod-failure-policy): a pod lost
 * to a disruption under an Ignore rule is replaced for its index and not counted; a non-zero exit
 * under FailJob fails the Job at once with reason PodFailurePolicy; without a policy any failure
 * fails the Indexed Job as before.
 */
class JobControllerPolicyTest {
    final SimulatedClock clock = new SimulatedClock(SimAccount.START);
    final SimulatedNetwork network = SimulatedNetwork.stack();
    final SimulatedCapacity capacity = SimulatedCapacity.stack(SimAccount.START);
    final SimulatedClusters clusters = new SimulatedClusters(new SimulatedWorkload(), clock);
    final SimulatedEks eks = new SimulatedEks(new CallLog(), clock, new FaultPlan(), Authorizer.ALLOW_ALL, clusters)
            .sharing(network)
            .launchingInto(
                    capacity,
                    new SimulatedCloudControl(new CallLog(), clock, new FaultPlan(), Authorizer.ALLOW_ALL)
                            .reading(network, capacity));
    KubernetesClient client;

    @AfterEach
    void close() {
        clusters.close();
    }

    void startCluster() {
        eks.createCluster(SimAccount.cluster("policy", null, null).toBuilder()
                .resourcesVpcConfig(v -> v.subnetIds(SimulatedNetwork.SUBNET_1A, SimulatedNetwork.SUBNET_1B))
                .build());
        clock.advance(SimulatedEks.CLUSTER_CREATING);
        eks.createNodegroup(SimulatedClusterRulesTest.cpuNodes(2).toBuilder()
                .clusterName("policy")
                .build());
        clock.advance(SimulatedEks.NODEGROUP_CREATING);
        clusters.reconcile(eks);
        client = clusters.cluster("policy").orElseThrow().kubernetes().admin();
    }

    void run(int seconds) {
        for (int i = 0; i < seconds; i++) {
            clock.advance(Duration.ofSeconds(1));
            clusters.reconcile(eks);
        }
    }

    static Job trainingJob(PodFailurePolicy policy) {
        return new JobBuilder()
                .withNewMetadata()
                .withName("train")
                .withNamespace("default")
                .withLabels(Map.of(WorkloadManifests.COMPONENT, "training"))
                .endMetadata()
                .withNewSpec()
                .withCompletionMode("Indexed")
                .withCompletions(2)
                .withParallelism(2)
                .withBackoffLimitPerIndex(0)
                .withMaxFailedIndexes(0)
                .withPodFailurePolicy(policy)
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(Map.of(WorkloadManifests.COMPONENT, "training"))
                .endMetadata()
                .withNewSpec()
                .withRestartPolicy("Never")
                .addNewContainer()
                .withName("trainer")
                .withImage("busybox")
                .withCommand("train", "--epochs", "4")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    List<Pod> pods() {
        return client.pods()
                .inNamespace("default")
                .withLabel(JobController.JOB_NAME, "train")
                .list()
                .getItems();
    }

    Pod ofIndex(int index) {
        return pods().stream()
                .filter(p -> JobController.index(p) == index)
                .findFirst()
                .orElseThrow();
    }

    Job job() {
        return client.batch()
                .v1()
                .jobs()
                .inNamespace("default")
                .withName("train")
                .get();
    }

    List<String> conditions() {
        var status = job().getStatus();
        return status.getConditions() == null
                ? List.of()
                : status.getConditions().stream()
                        .filter(c -> "True".equals(c.getStatus()))
                        .map(c -> c.getType() + "/" + c.getReason())
                        .toList();
    }

    /** As the pod garbage collector leaves a pod whose node was deleted. */
    void disrupt(Pod pod) {
        pod.getStatus().setPhase("Failed");
        var conditions = new ArrayList<>(pod.getStatus().getConditions());
        conditions.add(new PodConditionBuilder()
                .withType(JobPods.DISRUPTION_TARGET)
                .withStatus("True")
                .withReason("DeletionByPodGC")
                .withLastTransitionTime(clock.instant().toString())
                .build());
        pod.getStatus().setConditions(conditions);
        client.pods().inNamespace("default").resource(pod).updateStatus();
    }

    void exit(Pod pod, int code) {
        pod.getStatus().setPhase(code == 0 ? "Succeeded" : "Failed");
        pod.getStatus()
                .setContainerStatuses(List.of(new ContainerStatusBuilder()
                        .withName("trainer")
                        .withNewState()
                        .withNewTerminated()
                        .withExitCode(code)
                        .endTerminated()
                        .endState()
                        .build()));
        client.pods().inNamespace("default").resource(pod).updateStatus();
    }

    @Test
    void aPodLostToItsNodeIsReplacedForItsIndexWithoutCountingAFailure() {
        startCluster();
        client.batch()
                .v1()
                .jobs()
                .inNamespace("default")
                .resource(trainingJob(WorkloadManifests.trainingPodFailurePolicy()))
                .create();
        run(10);
        Pod lost = ofIndex(1);
        assertThat(lost.getStatus().getPhase()).isEqualTo("Running");

        disrupt(lost);
        run(1);

        assertThat(pods()).hasSize(3);
        Pod replacement = pods().stream()
                .filter(p -> JobController.index(p) == 1
                        && !p.getMetadata().getName().equals(lost.getMetadata().getName()))
                .findFirst()
                .orElseThrow();
        assertThat(replacement.getStatus().getPhase()).isIn("Pending", "Running");
        assertThat(job().getStatus().getFailed()).isZero();
        assertThat(conditions()).isEmpty();

        run(200);
        assertThat(conditions()).contains("Complete/null");
        assertThat(job().getStatus().getFailed()).isZero();
        assertThat(job().getStatus().getSucceeded()).isEqualTo(2);
    }

    @Test
    void aNonZeroExitFailsTheJobAtOnceByItsFailJobRule() {
        startCluster();
        client.batch()
                .v1()
                .jobs()
                .inNamespace("default")
                .resource(trainingJob(WorkloadManifests.trainingPodFailurePolicy()))
                .create();
        run(10);
        Pod crashed = ofIndex(0);

        exit(crashed, 2);
        run(1);

        assertThat(conditions()).containsExactly("FailureTarget/PodFailurePolicy", "Failed/PodFailurePolicy");
        JobCondition failed = job().getStatus().getConditions().get(1);
        assertThat(failed.getMessage())
                .isEqualTo("Container trainer for pod default/"
                        + crashed.getMetadata().getName()
                        + " failed with exit code 2 matching FailJob rule at index 1");
        assertThat(pods()).as("no second attempt").hasSize(2);
    }

    @Test
    void withoutAPolicyALostPodFailsTheIndexedJobAsBefore() {
        startCluster();
        client.batch()
                .v1()
                .jobs()
                .inNamespace("default")
                .resource(trainingJob(null))
                .create();
        run(10);

        disrupt(ofIndex(1));
        run(1);

        assertThat(conditions()).containsExactly("Failed/FailedIndexes");
        assertThat(job().getStatus().getFailed()).isEqualTo(1);
        assertThat(pods()).hasSize(2);
    }

    @Test
    void rulesMatchInOrderExitCodeZeroNeverAndOnlyTheNamedContainer() {
        Job job = trainingJob(WorkloadManifests.trainingPodFailurePolicy());
        Pod pod = new io.fabric8.kubernetes.api.model.PodBuilder()
                .withNewMetadata()
                .withName("p")
                .endMetadata()
                .withNewStatus()
                .withPhase("Failed")
                .endStatus()
                .build();
        assertThat(JobController.matchingRule(job, pod)).isEmpty();

        pod.getStatus().setContainerStatuses(List.of(terminated("trainer", 0)));
        assertThat(JobController.matchingRule(job, pod)).as("exit 0").isEmpty();

        pod.getStatus().setContainerStatuses(List.of(terminated("sidecar", 1)));
        assertThat(JobController.matchingRule(job, pod)).as("another container").isEmpty();

        pod.getStatus().setContainerStatuses(List.of(terminated("trainer", 137)));
        assertThat(JobController.matchingRule(job, pod).orElseThrow().getAction())
                .isEqualTo("FailJob");

        // A disrupted pod's trainer often exits non-zero too (SIGTERM): the Ignore rule comes first.
        pod.getStatus()
                .setConditions(List.of(new PodConditionBuilder()
                        .withType(JobPods.DISRUPTION_TARGET)
                        .withStatus("True")
                        .build()));
        assertThat(JobController.matchingRule(job, pod).orElseThrow().getAction())
                .isEqualTo("Ignore");

        pod.getStatus().getConditions().get(0).setStatus("False");
        assertThat(JobController.matchingRule(job, pod).orElseThrow().getAction())
                .isEqualTo("FailJob");
    }

    private static io.fabric8.kubernetes.api.model.ContainerStatus terminated(String name, int code) {
        return new ContainerStatusBuilder()
                .withName(name)
                .withNewState()
                .withNewTerminated()
                .withExitCode(code)
                .endTerminated()
                .endState()
                .build();
    }
}
