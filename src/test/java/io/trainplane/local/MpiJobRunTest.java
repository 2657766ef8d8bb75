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
import org.junit.jupiter.api.Test;

/** The quickstart with training.launcher "mpijob", on the simulated MPI operator. */
class MpiJobRunTest {
    static final String IMAGE = "horovod/horovod:0.28.1";

    static ObjectNode quickstart(int workers) throws IOException {
        ObjectNode spec = (ObjectNode) Json.read(Files.readString(Path.of("examples/quickstart.json")));
        ((ObjectNode) spec.path("training"))
                .put("launcher", "mpijob")
                .put("image", IMAGE)
                .put("workers", workers);
        ((ObjectNode) spec.path("cluster").path("nodeGroup")).put("nodes", workers);
        return spec;
    }

    static RunReport run(Faults faults, int workers) throws IOException {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            return new LocalRun(cloud, faults, e -> {})
                    .execute(RunSpecs.normalize(Json.write(quickstart(workers))), "quickstart");
        }
    }

    @Test
    void onACreatedClusterTheRunInstallsTheMpiOperatorAndTrainsWithALauncherAndAWorkerPodEach() throws IOException {
        RunReport r = run(Faults.none(), 3);

        assertThat(r.status()).as(r.error() + " " + r.cause()).isEqualTo("SUCCEEDED");
        assertThat(r.metrics().get("accuracy")).isGreaterThan(0.6);
        assertThat(r.events()).contains("Training Job Completed");
        assertThat(r.resources().created())
                .anyMatch(c -> c.startsWith("kubernetes:MPIJob/tp-quickstart/"))
                .anyMatch(c -> c.endsWith("-worker-0"))
                .anyMatch(c -> c.endsWith("-worker-2"))
                .noneMatch(c -> c.endsWith("-worker-3"));
        assertThat(r.resources().remaining()).isEmpty();
    }

    @Test
    void aCrashOfTheTrainingFailsTheMpiJobWithItsLaunchersDiagnosis() throws IOException {
        RunReport r = run(Faults.onCluster(ClusterFault.CRASH_LOOP), 2);

        assertThat(r.status()).isEqualTo("FAILED");
        assertThat(r.failedState()).isEqualTo("CheckTraining");
        assertThat(r.error()).isEqualTo("TrainingFailed");
        // The launcher failed with the user's code, no worker's node lost: the run fails before the
        // launcher Job runs it again (runPolicy.backoffLimit, for a lost worker).
        assertThat(r.cause())
                .startsWith("RuntimeError: simulated crash at start-up")
                .contains("the training MPIJob tp-quickstart-train: pod tp-quickstart-train-launcher-")
                .contains("failed (exit code 1) with no node lost");
        assertThat(r.resources().remaining()).isEmpty();
    }

    @Test
    void anExistingClusterWithoutTheMpiOperatorIsRefusedBeforeAnythingIsCreated() throws IOException {
        ObjectNode spec = (ObjectNode) Json.read(Files.readString(Path.of("examples/existing-cluster.json")));
        ((ObjectNode) spec.path("training")).put("launcher", "mpijob").put("image", IMAGE);
        RunReport r;
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            r = new LocalRun(cloud, Faults.none(), e -> {})
                    .execute(RunSpecs.normalize(Json.write(spec)), "warm-cluster");
            assertThat(cloud.inventory()).isEmpty();
        }

        assertThat(r.status()).isEqualTo("FAILED");
        assertThat(r.failedState()).isEqualTo("ConnectCluster");
        assertThat(r.error()).isEqualTo("ClusterPrerequisitesMissing");
        assertThat(r.cause())
                .contains("missing the CRD mpijobs.kubeflow.org")
                .contains("mpi-operator/v0.8.2/deploy/v2beta1/mpi-operator.yaml");
        assertThat(r.resources().created()).isEmpty();
    }

    @Test
    void anExistingClusterWithTheMpiOperatorRunsTheMpiJobAndKeepsTheOperator() throws IOException {
        ObjectNode spec = (ObjectNode) Json.read(Files.readString(Path.of("examples/existing-cluster.json")));
        spec.put("runId", "mpi-team");
        ((ObjectNode) spec.path("cluster")).put("name", "mpi-team");
        ((ObjectNode) spec.path("training")).put("launcher", "mpijob").put("image", IMAGE);
        RunReport r;
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            cloud.addExistingCluster(new io.trainplane.local.sim.ExistingCluster(
                    "mpi-team",
                    io.trainplane.spec.KubernetesVersions.newestInStandardSupport(
                                    io.trainplane.spec.KubernetesVersions.day(
                                            cloud.clock().instant()))
                            .orElseThrow(),
                    java.util.List.of(new io.trainplane.local.sim.ExistingCluster.NodeGroup(
                            "workers", "m5.xlarge", 2, java.util.Map.of(), java.util.List.of())),
                    java.util.Set.of(
                            io.trainplane.local.sim.ExistingCluster.Software.COREDNS,
                            io.trainplane.local.sim.ExistingCluster.Software.MPI_OPERATOR)));
            r = new LocalRun(cloud, Faults.none(), e -> {}).execute(RunSpecs.normalize(Json.write(spec)), "mpi-team");
            assertThat(cloud.kubernetes("mpi-team")
                            .admin()
                            .apps()
                            .deployments()
                            .inNamespace("mpi-operator")
                            .withName("mpi-operator")
                            .get())
                    .as("the operator belongs to the cluster, not to the run")
                    .isNotNull();
        }

        assertThat(r.status()).as(r.error() + " " + r.cause()).isEqualTo("SUCCEEDED");
        assertThat(r.resources().created()).anyMatch(c -> c.startsWith("kubernetes:MPIJob/"));
        assertThat(r.resources().remaining()).isEmpty();
    }
}
