package io.trainplane.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.trainplane.Prerequisite;
import io.trainplane.core.Json;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every PyTorchJob the launcher can generate, checked against the Kubeflow training operator's CRD. */
class PyTorchJobManifestTest {
    static final Path CRD = Path.of("../shared/kubeflow/v1.9.4/kubeflow.org_pytorchjobs.yaml");
    static JsonSchema schema;

    @BeforeAll
    static void loadCrd() throws IOException {
        if (!Files.exists(CRD)) {
            return;
        }
        JsonNode crd = new ObjectMapper(new YAMLFactory()).readTree(CRD.toFile());
        for (JsonNode version : crd.path("spec").path("versions")) {
            if (version.path("name").asText().equals("v1")) {
                schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4)
                        .getSchema(version.path("schema").path("openAPIV3Schema"));
            }
        }
    }

    static RunSpec spec(int workers, int gpus, int procs) {
        return RunSpecs.parse(
                """
                {"runId": "nightly-7", "cluster": {"mode": "existing", "name": "warm"}, "volume": {"type": "efs"},
                 "training": {"launcher": "pytorchjob", "workers": %d, "gpusPerWorker": %d, "procsPerWorker": %d}}"""
                        .formatted(workers, gpus, procs));
    }

    static Stream<Arguments> variants() {
        return IntStream.rangeClosed(1, 4)
                .boxed()
                .flatMap(workers -> Stream.of(
                        Arguments.of(workers, 0, 1),
                        Arguments.of(workers, 0, 2),
                        Arguments.of(workers, 1, 1),
                        Arguments.of(workers, 4, 4)));
    }

    @ParameterizedTest(name = "workers {0}, gpus {1}, procs {2}")
    @MethodSource("variants")
    void validatesAgainstTheCrdAndItsReplicasAddUpToTheWorkers(int workers, int gpus, int procs) {
        var job = new WorkloadManifests(spec(workers, gpus, procs)).pyTorchJob();
        JsonNode json = Json.mapper().valueToTree(job);

        JsonNode replicas = json.path("spec").path("pytorchReplicaSpecs");
        int total = 0;
        for (JsonNode replica : replicas) {
            total += replica.path("replicas").asInt();
        }
        assertThat(total).isEqualTo(workers);
        assertThat(replicas.path("Master").path("replicas").asInt()).isEqualTo(1);
        assertThat(json.path("spec").path("nprocPerNode").asText()).isEqualTo(Integer.toString(procs));
        Prerequisite.require(
                schema != null,
                "the Kubeflow CRD is not at " + CRD.toAbsolutePath().normalize()
                        + " (shared reference data); schema validation skipped");
        Set<ValidationMessage> errors = schema.validate(json);
        assertThat(errors).as(json.toPrettyString()).isEmpty();
    }

    @Test
    void thePodTemplateHasWhatTheIndexedJobsHas() {
        JsonNode json = Json.mapper().valueToTree(new WorkloadManifests(spec(2, 4, 4)).pyTorchJob());
        JsonNode spec = json.path("spec");
        JsonNode pod = spec.path("pytorchReplicaSpecs").path("Worker").path("template");

        assertThat(json.path("apiVersion").asText()).isEqualTo("kubeflow.org/v1");
        assertThat(spec.path("elasticPolicy").path("rdzvBackend").asText()).isEqualTo("c10d");
        assertThat(spec.path("elasticPolicy").path("minReplicas").asInt()).isEqualTo(2);
        assertThat(spec.path("elasticPolicy").path("maxReplicas").asInt()).isEqualTo(2);
        assertThat(spec.path("runPolicy").path("cleanPodPolicy").asText()).isEqualTo("None");
        assertThat(spec.path("runPolicy").path("activeDeadlineSeconds").asLong())
                .isEqualTo(240 * 60L);
        assertThat(pod.path("metadata")
                        .path("labels")
                        .path(RunObjects.RUN_LABEL)
                        .asText())
                .isEqualTo("nightly-7");
        JsonNode container = pod.path("spec").path("containers").get(0);
        assertThat(container.path("name").asText()).isEqualTo("pytorch");
        assertThat(container
                        .path("resources")
                        .path("limits")
                        .path("nvidia.com/gpu")
                        .asText())
                .isEqualTo("4");
        assertThat(container.path("volumeMounts").findValuesAsText("mountPath"))
                .contains("/dev/shm", "/shared", "/workload");
        assertThat(pod.path("spec").path("volumes").findValuesAsText("claimName"))
                .contains(VolumeManifests.CLAIM);
        assertThat(pod.path("spec").path("tolerations").get(0).path("key").asText())
                .isEqualTo("nvidia.com/gpu");
        assertThat(pod.path("spec").path("terminationGracePeriodSeconds").asLong())
                .as("time to checkpoint on SIGTERM")
                .isEqualTo(90);
    }

    @Test
    void onACreatedEfaClusterEveryReplicaSelectsTheWorkersAndAsksForTheirEfaInterfaces() {
        RunSpec created = RunSpecs.parse(
                """
                {"runId": "nightly-7", "cluster": {"mode": "create", "kubernetesVersion": "1.35",
                  "nodeGroup": {"instanceType": "p4d.24xlarge", "nodes": 2, "gpusPerNode": 8, "efa": true}},
                 "training": {"launcher": "pytorchjob", "workers": 2, "gpusPerWorker": 8, "procsPerWorker": 8}}""");
        JsonNode replicas = Json.mapper()
                .valueToTree(new WorkloadManifests(created).pyTorchJob())
                .path("spec")
                .path("pytorchReplicaSpecs");
        for (String replica : List.of("Master", "Worker")) {
            JsonNode pod = replicas.path(replica).path("template").path("spec");
            assertThat(pod.path("nodeSelector").path("trainplane.io/node-pool").asText())
                    .as(replica)
                    .isEqualTo("workers");
            JsonNode resources = pod.path("containers").get(0).path("resources");
            assertThat(resources.path("requests").path("vpc.amazonaws.com/efa").asText())
                    .isEqualTo("4");
            assertThat(resources.path("limits").path("vpc.amazonaws.com/efa").asText())
                    .isEqualTo("4");
        }
    }

    @Test
    void theSchemaCatchesAMalformedPyTorchJob() {
        Prerequisite.require(
                schema != null,
                "the Kubeflow CRD is not at " + CRD.toAbsolutePath().normalize() + "; skipped");
        var json = (com.fasterxml.jackson.databind.node.ObjectNode)
                Json.mapper().valueToTree(new WorkloadManifests(spec(2, 0, 1)).pyTorchJob());
        ((com.fasterxml.jackson.databind.node.ObjectNode)
                        json.path("spec").path("pytorchReplicaSpecs").path("Worker"))
                .put("replicas", "two");

        assertThat(schema.validate(json)).isNotEmpty();
    }

    @Test
    void replicasRestartOnlyWhatASignalOrALostNodeEndedAndTorchrunRunsUnderTermExit() {
        var job = new WorkloadManifests(spec(2, 0, 1)).pyTorchJob();
        JsonNode replicas = Json.mapper().valueToTree(job).path("spec").path("pytorchReplicaSpecs");
        for (String type : List.of("Master", "Worker")) {
            JsonNode replica = replicas.path(type);
            assertThat(replica.path("restartPolicy").asText()).as(type).isEqualTo("ExitCode");
            List<String> command = Json.mapper()
                    .convertValue(
                            replica.path("template")
                                    .path("spec")
                                    .path("containers")
                                    .path(0)
                                    .path("command"),
                            new com.fasterxml.jackson.core.type.TypeReference<List<String>>() {});
            assertThat(TermExit.unwrap(command)).as(type).hasValueSatisfying(c -> assertThat(c)
                    .startsWith("torchrun", WorkloadManifests.WORKLOAD_DIR + "/train.py"));
        }
    }
}
