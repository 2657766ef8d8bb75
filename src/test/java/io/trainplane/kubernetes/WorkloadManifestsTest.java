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
    void trainingIsAnIndexedJobWithOnePodPerWorkerAndTorchrunRendezvousAtPodZero() {
        var manifests = new WorkloadManifests(
                spec("{\"workers\": 3, \"procsPerWorker\": 2, \"epochs\": 4, \"maxRestarts\": 1}"));
        Job job = manifests.trainingJob();

        assertThat(job.getSpec().getCompletionMode()).isEqualTo("Indexed");
        assertThat(job.getSpec().getCompletions()).isEqualTo(3);
        assertThat(job.getSpec().getParallelism()).isEqualTo(3);
        assertThat(job.getSpec().getBackoffLimitPerIndex()).isZero();
        assertThat(job.getSpec().getActiveDeadlineSeconds()).isEqualTo(240 * 60L);
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
