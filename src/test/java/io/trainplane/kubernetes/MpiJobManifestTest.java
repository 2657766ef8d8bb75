package io.trainplane.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every MPIJob the launcher can generate, checked against the MPI operator's v2beta1 CRD. */
class MpiJobManifestTest {
    static final String IMAGE = "horovod/horovod:0.28.1";

    static RunSpec spec(int workers, int gpus, int procs) {
        return RunSpecs.parse(
                """
                {"runId": "nightly-7", "cluster": {"mode": "existing", "name": "warm"}, "volume": {"type": "efs"},
                 "training": {"launcher": "mpijob", "image": "%s", "workers": %d, "gpusPerWorker": %d,
                  "procsPerWorker": %d}}"""
                        .formatted(IMAGE, workers, gpus, procs));
    }

    static Stream<Arguments> variants() {
        return IntStream.rangeClosed(1, 4)
                .boxed()
                .flatMap(workers -> Stream.of(
                        Arguments.of(workers, 0, 1), Arguments.of(workers, 0, 2), Arguments.of(workers, 4, 4)));
    }

    @ParameterizedTest(name = "workers {0}, gpus {1}, procs {2}")
    @MethodSource("variants")
    void validatesAgainstTheCrdWithOneLauncherAndAWorkerPerTrainingWorker(int workers, int gpus, int procs)
            throws IOException {
        JsonNode json = Json.mapper().valueToTree(new WorkloadManifests(spec(workers, gpus, procs)).mpiJob());

        assertThat(json.path("apiVersion").asText()).isEqualTo("kubeflow.org/v2beta1");
        assertThat(json.at("/spec/mpiReplicaSpecs/Launcher/replicas").asInt()).isEqualTo(1);
        assertThat(json.at("/spec/mpiReplicaSpecs/Worker/replicas").asInt()).isEqualTo(workers);
        assertThat(json.at("/spec/slotsPerWorker").asInt()).isEqualTo(procs);
        List<String> mpirun = TermExit.unwrap(command(json, "Launcher")).orElseThrow();
        assertThat(MpiJobManifest.processes(mpirun)).isEqualTo(workers * procs);
        assertThat(KubeflowCrds.loaded().validate(json))
                .as(json.toPrettyString())
                .isEmpty();
    }

    @Test
    void theCrdCatchesAMalformedMpiJob() throws IOException {
        ObjectNode json = Json.mapper().valueToTree(new WorkloadManifests(spec(2, 0, 1)).mpiJob());
        ((ObjectNode) json.at("/spec/mpiReplicaSpecs/Worker")).put("replicas", "two");
        assertThat(KubeflowCrds.loaded().validate(json)).isNotEmpty();
    }

    @Test
    void theLauncherRunsTrainPyUnderMpirunWithTorchsVariablesAndTheWorkersRunSshd() {
        JsonNode json = Json.mapper().valueToTree(new WorkloadManifests(spec(3, 4, 4)).mpiJob());
        JsonNode spec = json.path("spec");
        assertThat(spec.path("mpiImplementation").asText()).isEqualTo("OpenMPI");
        assertThat(spec.path("launcherCreationPolicy").asText()).isEqualTo("WaitForWorkersReady");
        assertThat(spec.at("/runPolicy/cleanPodPolicy").asText()).isEqualTo("Running");
        assertThat(spec.at("/runPolicy/activeDeadlineSeconds").asLong()).isEqualTo(240 * 60L);

        List<String> mpirun = TermExit.unwrap(command(json, "Launcher")).orElseThrow();
        assertThat(mpirun).startsWith("mpirun", "--allow-run-as-root", "-np", "12");
        assertThat(String.join(" ", mpirun)).contains("-x MASTER_ADDR", "-x MASTER_PORT", "-x PATH");
        assertThat(MpiJobManifest.processCommand(mpirun)).hasValueSatisfying(c -> assertThat(c)
                .startsWith("python", WorkloadManifests.WORKLOAD_DIR + "/train.py"));
        assertThat(MpiJobManifest.RANKS)
                .contains(
                        "RANK=\"$OMPI_COMM_WORLD_RANK\"", "WORLD_SIZE=\"$OMPI_COMM_WORLD_SIZE\"", "exec \"$0\" \"$@\"");
        JsonNode launcher = spec.at("/mpiReplicaSpecs/Launcher/template/spec");
        var names = new io.trainplane.spec.Names("nightly-7");
        assertThat(launcher.at("/containers/0/env").findValuesAsText("value"))
                .contains(names.trainingJob() + "-worker-0." + names.trainingJob() + "." + names.namespace() + ".svc");
        assertThat(launcher.at("/containers/0/resources/limits").has("nvidia.com/gpu"))
                .isFalse();
        assertThat(launcher.path("initContainers").findValuesAsText("name"))
                .contains(WorkloadManifests.CHECKPOINT_SYNC);

        JsonNode worker = spec.at("/mpiReplicaSpecs/Worker/template/spec");
        assertThat(command(json, "Worker")).containsExactly("/usr/sbin/sshd", "-De");
        assertThat(worker.at("/containers/0/resources/limits/nvidia.com~1gpu").asText())
                .isEqualTo("4");
        assertThat(worker.path("volumes").findValuesAsText("claimName")).contains(VolumeManifests.CLAIM);
        assertThat(worker.path("tolerations").get(0).path("key").asText()).isEqualTo("nvidia.com/gpu");
        assertThat(worker.path("serviceAccountName").asText()).isEqualTo("trainplane-run");
        assertThat(spec.at("/mpiReplicaSpecs/Worker/template/metadata/labels/"
                                + RunObjects.RUN_LABEL.replace("/", "~1"))
                        .asText())
                .isEqualTo("nightly-7");
    }

    @Test
    void onACreatedEfaClusterTheWorkersGetTheInterfacesAndTheLauncherTheSystemNode() {
        RunSpec created = RunSpecs.parse(
                """
                {"runId": "nightly-7", "cluster": {"mode": "create", "kubernetesVersion": "1.35",
                  "nodeGroup": {"instanceType": "p4d.24xlarge", "nodes": 2, "gpusPerNode": 8, "efa": true}},
                 "workload": {"image": "%s"},
                 "training": {"launcher": "mpijob", "workers": 2, "gpusPerWorker": 8, "procsPerWorker": 8}}"""
                        .formatted(IMAGE));
        JsonNode replicas = Json.mapper()
                .valueToTree(new WorkloadManifests(created).mpiJob())
                .at("/spec/mpiReplicaSpecs");
        JsonNode worker = replicas.at("/Worker/template/spec");
        assertThat(worker.at("/nodeSelector/trainplane.io~1node-pool").asText()).isEqualTo("workers");
        assertThat(worker.at("/containers/0/resources/requests/vpc.amazonaws.com~1efa")
                        .asText())
                .isEqualTo("4");
        assertThat(replicas.at("/Launcher/template/spec/nodeSelector/trainplane.io~1node-pool")
                        .asText())
                .isEqualTo("system");
    }

    private static List<String> command(JsonNode job, String replica) {
        return Json.mapper()
                .convertValue(
                        job.at("/spec/mpiReplicaSpecs/" + replica + "/template/spec/containers/0/command"),
                        new TypeReference<List<String>>() {});
    }
}
