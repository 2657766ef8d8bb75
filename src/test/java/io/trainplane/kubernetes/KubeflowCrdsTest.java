package io.trainplane.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import io.trainplane.spec.RunSpecs;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The judge of Kubeflow objects itself: the project's PyTorchJob passes, broken copies fail for their reason. */
class KubeflowCrdsTest {
    static JsonNode pyTorchJob(Consumer<ObjectNode> breakIt) {
        var spec = RunSpecs.parse(
                """
                {"runId": "judge-2", "cluster": {"mode": "existing", "name": "warm"}, "volume": {"type": "efs"},
                 "training": {"launcher": "pytorchjob", "workers": 3, "gpusPerWorker": 2, "procsPerWorker": 2}}""");
        ObjectNode job =
                (ObjectNode) Json.read(KubernetesJson.SERIALIZATION.asJson(new WorkloadManifests(spec).pyTorchJob()));
        breakIt.accept(job);
        return job;
    }

    static ObjectNode worker(ObjectNode job) {
        return (ObjectNode) job.path("spec").path("pytorchReplicaSpecs").path("Worker");
    }

    @Test
    void theProjectsPyTorchJobIsValid() throws Exception {
        assertThat(KubeflowCrds.loaded().validate(pyTorchJob(job -> {}))).isEmpty();
    }

    @Test
    void anUnknownReplicaFieldIsRefused() throws Exception {
        // The API server prunes a field the structural schema does not list: the operator would never see it.
        var errors =
                KubeflowCrds.loaded().validate(pyTorchJob(job -> worker(job).put("replicaCount", 2)));

        assertThat(errors).singleElement().asString().contains("replicaCount").contains("not defined in the schema");
    }

    @Test
    void aStringWhereAnIntegerBelongsIsRefused() throws Exception {
        var errors =
                KubeflowCrds.loaded().validate(pyTorchJob(job -> worker(job).put("replicas", "2")));

        assertThat(errors).singleElement().asString().contains("$.spec.pytorchReplicaSpecs.Worker.replicas", "integer");
    }

    @Test
    void anUnknownFieldDeepInThePodTemplateIsRefused() throws Exception {
        var errors = KubeflowCrds.loaded()
                .validate(pyTorchJob(
                        job -> ((ObjectNode) worker(job).path("template").path("spec")).put("nodeSelectors", "typo")));

        assertThat(errors).singleElement().asString().contains("nodeSelectors");
    }

    @Test
    void metadataIsKeptAndAKindNoCrdServesIsNotJudged() throws Exception {
        KubeflowCrds crds = KubeflowCrds.loaded();
        JsonNode job = pyTorchJob(job1 -> {});

        assertThat(job.path("metadata").path("labels").size()).isPositive();
        assertThat(crds.defines(job)).isTrue();
        assertThat(crds.defines(pyTorchJob(j -> j.put("apiVersion", "kubeflow.org/v2"))))
                .isFalse();
        assertThat(crds.defines(pyTorchJob(j -> j.put("kind", "TFJob")))).isFalse();
    }

    @Test
    void theMpiJobCrdJudgesMpiJobs() throws Exception {
        JsonNode mpiJob = Json.read(
                """
                {"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob", "metadata": {"name": "m"},
                 "spec": {"slotsPerWorker": 1, "mpiReplicaSpecs": {
                   "Launcher": {"replicas": 1, "template": {"spec": {"containers": [{"name": "l", "image": "x"}]}}},
                   "Worker": {"replicas": 2, "template": {"spec": {"containers": [{"name": "w", "image": "x",
                     "resources": {"limits": {"nvidia.com/gpu": 1, "cpu": "2"}}}]}}}}}}""");
        ObjectNode broken = mpiJob.deepCopy();
        ((ObjectNode) broken.path("spec")).put("slotsPerWorker", "one");

        assertThat(KubeflowCrds.loaded().validate(mpiJob)).isEmpty();
        assertThat(KubeflowCrds.loaded().validate(broken))
                .singleElement()
                .asString()
                .contains("slotsPerWorker");
    }

    @Test
    void nullableAndIntOrStringBecomeJsonSchema() {
        JsonNode schema = KubeflowCrds.asJsonSchema(
                Json.read(
                        """
                        {"type": "object", "properties": {
                          "a": {"type": "string", "nullable": true},
                          "b": {"x-kubernetes-int-or-string": true},
                          "c": {"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": {"d": {"type": "string"}}},
                          "e": {"type": "object", "additionalProperties": {"type": "string"}}}}"""),
                true);

        assertThat(schema.path("properties").path("a").path("type").toString()).isEqualTo("[\"string\",\"null\"]");
        assertThat(schema.path("properties").path("b").path("anyOf").size()).isEqualTo(2);
        assertThat(schema.path("properties").path("c").has("additionalProperties"))
                .isFalse();
        assertThat(schema.path("properties")
                        .path("e")
                        .path("additionalProperties")
                        .path("type")
                        .asText())
                .isEqualTo("string");
        assertThat(schema.path("additionalProperties").asBoolean(true)).isFalse();
        assertThat(schema.path("properties").has("metadata")).isTrue();
    }
}
