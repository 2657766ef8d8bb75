package io.trainplane.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.RunSpecs;
import org.junit.jupiter.api.Test;

class WorkloadManifestsTest {
    static RunSpec spec(String training) {
        return RunSpecs.parse(
                """
                {"runId": "nightly-7", "cluster": {"mode": "existing", "name": "warm"},
                 "training": %s}"""
                        .formatted(training));
    }

    @Test
    void trainingAndEvaluationPodsRunAsTheRunsServiceAccountAndTheDataJobAsNone() {
        var manifests = new WorkloadManifests(spec("{\"workers\": 2}"));
        var account = manifests.serviceAccount();
        assertThat(account.getMetadata().getName()).isEqualTo("trainplane-run");
        assertThat(account.getMetadata().getNamespace()).isEqualTo("tp-nightly-7");
        assertThat(account.getMetadata().getLabels()).containsEntry("trainplane/run-id", "nightly-7");
        assertThat(manifests.all().indexOf(account)).isEqualTo(1);
        assertThat(pod(manifests.trainingJob()).getServiceAccountName()).isEqualTo("trainplane-run");
        assertThat(pod(manifests.evaluationJob()).getServiceAccountName()).isEqualTo("trainplane-run");
        assertThat(pod(manifests.dataJob()).getServiceAccountName()).isNull();
    }

    @Test
    void trainingIsAnIndexedJobWithOnePodPerWorkerAndTorchrunRendezvousAtPodZero() {
        var manifests = new WorkloadManifests(
                spec("{\"workers\": 3, \"procsPerWorker\": 2, \"epochs\": 4, \"maxRestarts\": 1}"));
        Job job = manifests.trainingJob();

        assertThat(job.getSpec().getCompletionMode()).isEqualTo("Indexed");
        assertThat(job.getSpec().getCompletions()).isEqualTo(3);
        assertThat(job.getSpec().getParallelism()).isEqualTo(3);
        assertThat(job.getSpec().getBackoffLimitPerIndex()).isZero();
        assertThat(job.getSpec().getActiveDeadlineSeconds()).isEqualTo(240 * 60L);
        // A pod lost to its node is replaced (Ignore, matched first); the trainer failing fails the Job.
        var rules = job.getSpec().getPodFailurePolicy().getRules();
        assertThat(rules).extracting("action").containsExactly("Ignore", "FailJob");
        assertThat(rules.get(0).getOnPodConditions())
                .singleElement()
                .satisfies(c -> assertThat(c.getType() + "=" + c.getStatus()).isEqualTo("DisruptionTarget=True"));
        assertThat(rules.get(1).getOnExitCodes().getContainerName()).isEqualTo("trainer");
        assertThat(rules.get(1).getOnExitCodes().getOperator()).isEqualTo("NotIn");
        assertThat(rules.get(1).getOnExitCodes().getValues()).containsExactly(0);
        var pod = job.getSpec().getTemplate().getSpec();
        assertThat(pod.getSubdomain())
                .isEqualTo(manifests.trainingService().getMetadata().getName());
        Container trainer = pod.getContainers().get(0);
        String service = manifests.trainingService().getMetadata().getName();
        assertThat(trainer.getCommand())
                .startsWith("torchrun")
                .contains(
                        "--nnodes=3",
                        "--nproc-per-node=2",
                        "--max-restarts=1",
                        "--rdzv-backend=c10d",
                        "--rdzv-endpoint=" + job.getMetadata().getName() + "-0." + service + ":29400",
                        "/workload/train.py",
                        "--epochs",
                        "4");
        assertThat(trainer.getVolumeMounts()).extracting("mountPath").contains("/dev/shm", "/workload", "/shared");
        assertThat(pod.getVolumes())
                .filteredOn(v -> v.getName().equals("dshm"))
                .singleElement()
                .satisfies(v -> assertThat(v.getEmptyDir().getMedium()).isEqualTo("Memory"));
        assertThat(pod.getTolerations()).isEmpty();
        assertThat(trainer.getResources().getLimits()).doesNotContainKey("nvidia.com/gpu");
        assertThat(pod.getTerminationGracePeriodSeconds())
                .as("torchrun's 30 s for the ranks to checkpoint on SIGTERM, and a margin")
                .isEqualTo(90L);
        assertThat(manifests.evaluationJob().getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds())
                .isNull();
    }

    static RunSpec created(String nodeGroup, String training) {
        return RunSpecs.parse(
                """
                {"runId": "nightly-7", "cluster": {"mode": "create", "kubernetesVersion": "1.35", "nodeGroup": %s},
                 "training": %s}"""
                        .formatted(nodeGroup, training));
    }

    static io.fabric8.kubernetes.api.model.PodSpec pod(Job job) {
        return job.getSpec().getTemplate().getSpec();
    }

    @Test
    void onACreatedGpuClusterTheDataJobRunsOnTheSystemNodesAndTrainingAndEvaluationOnTheTaintedWorkers() {
        var manifests = new WorkloadManifests(created(
                "{\"instanceType\": \"g5.12xlarge\", \"nodes\": 2, \"gpusPerNode\": 4}",
                "{\"workers\": 2, \"gpusPerWorker\": 4, \"cpu\": \"40\", \"memory\": \"150Gi\"}"));

        var data = pod(manifests.dataJob());
        assertThat(data.getNodeSelector()).containsExactly(java.util.Map.entry("trainplane.io/node-pool", "system"));
        assertThat(data.getTolerations()).as("the system nodes are untainted").isEmpty();
        // Sized for one m5.large beside CoreDNS and the controllers, not like a training pod.
        assertThat(data.getContainers().get(0).getResources().getRequests())
                .containsEntry("cpu", new io.fabric8.kubernetes.api.model.Quantity("500m"))
                .containsEntry("memory", new io.fabric8.kubernetes.api.model.Quantity("2Gi"))
                .doesNotContainKey("nvidia.com/gpu");

        for (Job job : java.util.List.of(manifests.trainingJob(), manifests.evaluationJob())) {
            assertThat(pod(job).getNodeSelector())
                    .containsExactly(java.util.Map.entry("trainplane.io/node-pool", "workers"));
            assertThat(pod(job).getTolerations()).singleElement().satisfies(t -> {
                assertThat(t.getKey()).isEqualTo("nvidia.com/gpu");
                assertThat(t.getOperator()).isEqualTo("Exists");
                assertThat(t.getEffect()).isEqualTo("NoSchedule");
            });
            assertThat(pod(job).getContainers().get(0).getResources().getLimits())
                    .doesNotContainKey("vpc.amazonaws.com/efa");
        }
    }

    @Test
    void onACreatedCpuClusterTheWorkersAreSelectedAndNoTaintIsTolerated() {
        var manifests = new WorkloadManifests(created("{\"instanceType\": \"c5.2xlarge\", \"nodes\": 2}", "{}"));
        assertThat(pod(manifests.trainingJob()).getNodeSelector()).containsEntry("trainplane.io/node-pool", "workers");
        assertThat(pod(manifests.trainingJob()).getTolerations()).isEmpty();
        assertThat(pod(manifests.dataJob()).getNodeSelector()).containsEntry("trainplane.io/node-pool", "system");
    }

    @Test
    void onAnExistingClusterNoPodSelectsANodePoolAndTheDataJobKeepsItsSizeAndToleration() {
        var manifests = new WorkloadManifests(spec("{\"gpusPerWorker\": 1, \"cpu\": \"6\", \"memory\": \"24Gi\"}"));
        for (Job job : java.util.List.of(manifests.dataJob(), manifests.trainingJob(), manifests.evaluationJob())) {
            assertThat(pod(job).getNodeSelector())
                    .as(job.getMetadata().getName())
                    .isNullOrEmpty();
            assertThat(pod(job).getTolerations()).extracting("key").containsExactly("nvidia.com/gpu");
        }
        assertThat(pod(manifests.dataJob())
                        .getContainers()
                        .get(0)
                        .getResources()
                        .getRequests())
                .containsEntry("cpu", new io.fabric8.kubernetes.api.model.Quantity("6"));
    }

    @Test
    void withEfaEachTrainingPodAsksForItsNodesEfaInterfacesAndEvaluationForNone() {
        var manifests = new WorkloadManifests(created(
                "{\"instanceType\": \"p4d.24xlarge\", \"nodes\": 2, \"gpusPerNode\": 8, \"efa\": true}",
                "{\"workers\": 2, \"gpusPerWorker\": 8}"));
        var trainer = pod(manifests.trainingJob()).getContainers().get(0).getResources();
        assertThat(trainer.getRequests().get("vpc.amazonaws.com/efa").getAmount())
                .isEqualTo("4");
        assertThat(trainer.getLimits().get("vpc.amazonaws.com/efa").getAmount()).isEqualTo("4");
        assertThat(trainer.getLimits().get("nvidia.com/gpu").getAmount()).isEqualTo("8");
        assertThat(pod(manifests.evaluationJob())
                        .getContainers()
                        .get(0)
                        .getResources()
                        .getLimits())
                .doesNotContainKey("vpc.amazonaws.com/efa");
        assertThat(pod(manifests.dataJob())
                        .getContainers()
                        .get(0)
                        .getResources()
                        .getLimits())
                .doesNotContainKey("vpc.amazonaws.com/efa");
    }

    @Test
    void severalWorkersOnAnEfaNodeShareItsInterfaces() {
        // 4 workers on 2 nodes: 2 a node, each with half of a p4d's 4 interfaces.
        var manifests = new WorkloadManifests(created(
                "{\"instanceType\": \"p4d.24xlarge\", \"nodes\": 2, \"gpusPerNode\": 8, \"efa\": true}",
                "{\"workers\": 4, \"gpusPerWorker\": 4}"));
        assertThat(manifests.efaPerWorker()).isEqualTo(2);
        // More workers a node than interfaces: one each.
        assertThat(new WorkloadManifests(created(
                                "{\"instanceType\": \"g5.48xlarge\", \"nodes\": 1, \"gpusPerNode\": 8, \"efa\": true}",
                                "{\"workers\": 8, \"gpusPerWorker\": 1}"))
                        .efaPerWorker())
                .isEqualTo(1);
    }

    @Test
    void rendezvousServiceIsHeadlessAndSelectsTheTrainingPods() {
        var manifests = new WorkloadManifests(spec("{}"));
        var service = manifests.trainingService();
        assertThat(service.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(service.getSpec().getSelector())
                .containsEntry(
                        "batch.kubernetes.io/job-name",
                        manifests.trainingJob().getMetadata().getName());
    }

    @Test
    void gpusAreRequestedAndTheGpuTaintTolerated() {
        Job job = new WorkloadManifests(spec("{\"gpusPerWorker\": 4}")).trainingJob();
        var pod = job.getSpec().getTemplate().getSpec();
        assertThat(pod.getContainers()
                        .get(0)
                        .getResources()
                        .getLimits()
                        .get("nvidia.com/gpu")
                        .getAmount())
                .isEqualTo("4");
        assertThat(pod.getTolerations()).extracting("key").containsExactly("nvidia.com/gpu");
    }

    @Test
    void everyObjectCarriesTheRunLabelAndLivesInTheRunNamespace() {
        var manifests = new WorkloadManifests(spec("{}"));
        for (HasMetadata object : manifests.all()) {
            assertThat(object.getMetadata().getLabels())
                    .containsEntry(RunObjects.RUN_LABEL, "nightly-7")
                    .containsEntry("app.kubernetes.io/managed-by", "trainplane");
            if (!(object instanceof io.fabric8.kubernetes.api.model.Namespace)) {
                assertThat(object.getMetadata().getNamespace())
                        .isEqualTo(manifests.namespace().getMetadata().getName());
            }
        }
    }

    @Test
    void evaluationWritesItsMetricsToTheTerminationMessage() {
        Container evaluator = new WorkloadManifests(spec("{}"))
                .evaluationJob()
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0);
        assertThat(evaluator.getCommand()).contains("/workload/evaluate.py", "--metrics-file", "/dev/termination-log");
        assertThat(evaluator.getTerminationMessagePath()).isEqualTo("/dev/termination-log");
        assertThat(evaluator.getTerminationMessagePolicy()).isEqualTo("FallbackToLogsOnError");
    }

    @Test
    void workloadScriptsAreShippedInTheConfigMap() {
        assertThat(new WorkloadManifests(spec("{}")).workloadScripts().getData())
                .containsKeys("prepare.py", "model.py", "train.py", "evaluate.py");
    }

    static RunSpec withData(String data) {
        return RunSpecs.parse(
                """
                {"runId": "nightly-7", "cluster": {"mode": "existing", "name": "warm"}, "data": %s}"""
                        .formatted(data));
    }

    @Test
    void theDataJobRunsPrepareOnceWithTheSourcesArguments() {
        String sha = "ab".repeat(32);
        Job url = new WorkloadManifests(withData(
                        "{\"source\": \"url\", \"url\": \"https://x.example/d.tgz\", \"sha256\": \"" + sha + "\"}"))
                .dataJob();
        Job s3 = new WorkloadManifests(withData("{\"source\": \"s3\", \"s3Uri\": \"s3://bucket/d.tgz\"}")).dataJob();
        Job synthetic = new WorkloadManifests(withData("{\"syntheticSamples\": 500}")).dataJob();

        assertThat(url.getSpec().getBackoffLimit()).isZero();
        assertThat(url.getSpec().getTemplate().getSpec().getContainers().get(0).getCommand())
                .containsExactly(
                        "python",
                        "/workload/prepare.py",
                        "--data-dir",
                        "/shared/data",
                        "--source",
                        "url",
                        "--url",
                        "https://x.example/d.tgz",
                        "--sha256",
                        sha);
        assertThat(s3.getSpec().getTemplate().getSpec().getContainers().get(0).getCommand())
                .endsWith("--source", "s3", "--url", "s3://bucket/d.tgz");
        assertThat(synthetic
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getCommand())
                .endsWith("--source", "synthetic", "--samples", "500");
        assertThat(synthetic
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getResources()
                        .getLimits())
                .doesNotContainKey("nvidia.com/gpu");
    }
}
