package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.kubernetes.PyTorchJobs;
import io.trainplane.local.sim.ClusterFault;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The quickstart with training.launcher "pytorchjob", on the simulated training operator. */
class PyTorchJobRunTest {
    static RunReport run(Faults faults, Consumer<LocalCloud> before) throws IOException {
        return run(faults, 3, before);
    }

    static RunReport run(Faults faults, int workers, Consumer<LocalCloud> before) throws IOException {
        ObjectNode spec = (ObjectNode) Json.read(Files.readString(Path.of("examples/quickstart.json")));
        ((ObjectNode) spec.path("training")).put("launcher", "pytorchjob").put("workers", workers);
        // A node for each replica: torchrun's rendezvous trains them together or not at all.
        ((ObjectNode) spec.path("cluster").path("nodeGroup")).put("nodes", workers);
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            before.accept(cloud);
            return new LocalRun(cloud, faults, e -> {}).execute(RunSpecs.normalize(Json.write(spec)), "quickstart");
        }
    }

    @Test
    void aPyTorchJobTrainsWithOnePodPerReplicaAndLeavesNothing() throws IOException {
        RunReport r = run(Faults.none(), cloud -> {});

        assertThat(r.status()).as(r.cause()).isEqualTo("SUCCEEDED");
        assertThat(r.metrics().get("accuracy")).isGreaterThan(0.6);
        assertThat(r.events()).contains("Training Job Completed");
        assertThat(r.resources().created())
                .anyMatch(c -> c.startsWith("kubernetes:PyTorchJob/tp-quickstart/"))
                .anyMatch(c -> c.endsWith("-master-0"))
                .anyMatch(c -> c.endsWith("-worker-1"))
                .noneMatch(c -> c.startsWith("kubernetes:Service/"));
        assertThat(r.resources().remaining()).isEmpty();
    }

    @Test
    void oneWorkerPassesTheOperatorsWebhookWithoutAnElasticPolicyAndTrains() throws IOException {
        RunReport r = run(Faults.none(), 1, cloud -> {});

        assertThat(r.status()).as(r.cause()).isEqualTo("SUCCEEDED");
        assertThat(r.resources().created())
                .anyMatch(c -> c.endsWith("-master-0"))
                .noneMatch(c -> c.contains("-worker-"));
        assertThat(r.resources().remaining()).isEmpty();
    }

    @Test
    void theOperatorsWebhookRefusesAnElasticPolicyWithoutAWorkerReplicaAsTheApiServerDoes() throws IOException {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            // The demo cluster runs the training operator, its webhook configuration included.
            var api = cloud.kubernetes(LocalCloud.DEMO_CLUSTER).admin();
            var job = new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder()
                    .withApiVersion("kubeflow.org/v1")
                    .withKind("PyTorchJob")
                    .withNewMetadata()
                    .withName("elastic-alone")
                    .withNamespace("default")
                    .endMetadata()
                    .withAdditionalProperties(java.util.Map.of(
                            "spec",
                            Json.mapper()
                                    .convertValue(
                                            Json.read(
                                                    """
                                                    {"elasticPolicy": {"rdzvBackend": "c10d", "minReplicas": 1, "maxReplicas": 1},
                                                     "pytorchReplicaSpecs": {"Master": {"replicas": 1, "template": {"spec":
                                                       {"containers": [{"name": "pytorch", "image": "busybox:1.37"}]}}}}}"""),
                                            java.util.Map.class)))
                    .build();
            var context = new io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext.Builder()
                    .withGroup("kubeflow.org")
                    .withVersion("v1")
                    .withPlural("pytorchjobs")
                    .withKind("PyTorchJob")
                    .withNamespaced(true)
                    .build();

            org.assertj.core.api.Assertions.assertThatThrownBy(() -> api.genericKubernetesResources(context)
                            .inNamespace("default")
                            .resource(job)
                            .create())
                    .isInstanceOfSatisfying(io.fabric8.kubernetes.client.KubernetesClientException.class, e -> {
                        assertThat(e.getCode()).isEqualTo(403);
                        assertThat(e.getMessage())
                                .contains("admission webhook \"validator.pytorchjob.training-operator.kubeflow.org\""
                                        + " denied the request: spec.pytorchReplicaSpecs[Worker]: Required value: must"
                                        + " be configured if elastic policy is used");
                    });
        }
    }

    @Test
    void onACreatedClusterTheRunInstallsTheTrainingOperatorFromTheReleaseManifest() throws IOException {
        // A created cluster is bare, as EKS makes it: the run installs the operator, CRDs first.
        RunReport r = run(Faults.none(), cloud -> {});

        assertThat(r.status()).as(r.cause()).isEqualTo("SUCCEEDED");
        assertThat(r.resources().remaining()).isEmpty();
    }

    @Test
    void anExistingClusterWithoutTheTrainingOperatorIsRefusedBeforeAnythingIsCreated() throws IOException {
        ObjectNode spec = (ObjectNode) Json.read(Files.readString(Path.of("examples/existing-cluster.json")));
        ((ObjectNode) spec.path("training")).put("launcher", "pytorchjob");
        spec.putObject("volume").put("type", "efs");
        RunReport r;
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            cloud.kubernetes(LocalCloud.DEMO_CLUSTER)
                    .admin()
                    .apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .withName(PyTorchJobs.CRD_NAME)
                    .delete();
            r = new LocalRun(cloud, Faults.none(), e -> {})
                    .execute(RunSpecs.normalize(Json.write(spec)), "warm-cluster");
            assertThat(cloud.inventory()).isEmpty();
        }

        assertThat(r.status()).isEqualTo("FAILED");
        assertThat(r.failedState()).isEqualTo("ConnectCluster");
        assertThat(r.error()).isEqualTo("ClusterPrerequisitesMissing");
        assertThat(r.cause())
                .contains("cluster trainplane-demo lacks what the run needs; nothing was created")
                .contains("1) missing the CRD pytorchjobs.kubeflow.org")
                .contains("kubectl apply --server-side -k")
                .contains("training-operator.git/manifests/overlays/standalone?ref=v1.9.4")
                .contains("2) missing the CSIDriver efs.csi.aws.com")
                .contains("aws-efs-csi-driver");
        assertThat(r.resources().created()).isEmpty();
        assertThat(r.resources().remaining()).isEmpty();
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "--cluster-fault {0}")
    @org.junit.jupiter.params.provider.EnumSource(
            value = ClusterFault.class,
            names = {"NODE_LOST", "SPOT_INTERRUPTION"})
    void aWorkerLostWithItsNodeIsCreatedAgainAndTheTrainingResumes(ClusterFault fault) throws IOException {
        // Two replicas (a Master and a Worker), one per node of the quickstart's group.
        RunReport r = run(Faults.onCluster(fault), 2, cloud -> {});

        assertThat(r.status()).as(r.error() + " " + r.cause()).isEqualTo("SUCCEEDED");
        assertThat(r.metrics().get("restarts")).isGreaterThanOrEqualTo(1.0);
        assertThat(r.metrics().get("resumedFromEpoch")).isEqualTo(5.0);
        assertThat(r.resources().remaining()).isEmpty();
    }

    @Test
    void aCrashOfTheUserCodeFailsThePyTorchJobAfterOneAttempt() throws IOException {
        // One worker (no elasticPolicy, torchrun restarts nothing): restartPolicy ExitCode makes the
        // traceback's exit 1 permanent, the operator does not retry.
        RunReport r = run(Faults.onCluster(ClusterFault.CRASH_LOOP), 1, cloud -> {});

        assertThat(r.status()).isEqualTo("FAILED");
        assertThat(r.failedState()).isEqualTo("CheckTraining");
        assertThat(r.error()).isEqualTo("TrainingFailed");
        assertThat(r.cause()).contains("PyTorchJobFailed").contains("replica(s) failed");
        assertThat(r.metrics()).doesNotContainKey("restarts");
        assertThat(r.resources().remaining()).isEmpty();
    }

    @Test
    void aCrashWithTorchrunRestartsLeftFailsThePyTorchJobRunAfterOneAttempt() throws IOException {
        // elasticPolicy.maxRestarts 3 (maxInterruptions): torchrun would start the crashing workers
        // again, in their pods, three times; no node was lost, so the run fails after the first.
        RunReport r = run(Faults.onCluster(ClusterFault.CRASH_LOOP), cloud -> {});

        assertThat(r.status()).isEqualTo("FAILED");
        assertThat(r.failedState()).isEqualTo("CheckTraining");
        assertThat(r.error()).isEqualTo("TrainingFailed");
        assertThat(r.cause())
                .startsWith("RuntimeError: simulated crash at start-up")
                .contains("the training PyTorchJob tp-quickstart-train: pod ", "with no node lost");
        assertThat(r.logTail().split("\\] failed \\(exitcode: 1\\)", -1))
                .as(r.logTail())
                .hasSize(2);
        assertThat(r.metrics()).doesNotContainKey("restarts");
        assertThat(r.resources().remaining()).isEmpty();
    }

    @Test
    void aDeletedPyTorchJobIsNoticed() throws IOException {
        RunReport r = run(Faults.onCluster(ClusterFault.JOB_DELETED), cloud -> {});

        assertThat(r.error() + r.cause()).contains("JobDeleted").contains("PyTorchJob");
        assertThat(r.resources().remaining()).isEmpty();
    }
}
