package io.trainplane.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.trainplane.core.Json;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.RunSpecs;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The judge of built-in objects itself: it passes the project's Job and refuses broken ones, each for its reason. */
class KubernetesModelsTest {
    static final RunSpec SPEC = RunSpecs.parse(
            """
            {"runId": "judge-1", "cluster": {"mode": "existing", "name": "warm"}, "volume": {"type": "efs"},
             "training": {"workers": 2, "gpusPerWorker": 1}}""");

    static JsonNode json(HasMetadata object) {
        return Json.read(KubernetesJson.SERIALIZATION.asJson(object));
    }

    static ObjectNode trainingJob(Consumer<ObjectNode> breakIt) {
        ObjectNode job = (ObjectNode) json(new WorkloadManifests(SPEC).trainingJob());
        breakIt.accept(job);
        return job;
    }

    static ObjectNode container(ObjectNode job) {
        return (ObjectNode) job.path("spec")
                .path("template")
                .path("spec")
                .path("containers")
                .get(0);
    }

    @Test
    void theProjectsTrainingJobIsValidAndEachBrokenCopyIsRefusedForItsReason() throws Exception {
        List<JsonNode> objects = List.of(
                trainingJob(job -> {}),
                trainingJob(job -> ((ObjectNode) job.path("spec")).put("backoffLimit", "three")),
                trainingJob(
                        job -> ((ObjectNode) container(job).path("resources").path("limits")).put("cpu", "lots")),
                trainingJob(job -> container(job).remove("name")),
                trainingJob(job -> ((ObjectNode) job.path("spec")).put("completionMode", "Sometimes")));

        List<KubernetesModels.Verdict> verdicts = KubernetesModels.installed().validate(objects);

        assertThat(verdicts)
                .extracting(KubernetesModels.Verdict::outcome)
                .containsExactly(
                        KubernetesModels.Outcome.VALID,
                        KubernetesModels.Outcome.INVALID,
                        KubernetesModels.Outcome.INVALID,
                        KubernetesModels.Outcome.INVALID,
                        KubernetesModels.Outcome.INVALID);
        assertThat(verdicts.get(0).errors()).isEmpty();
        assertThat(verdicts.get(1).errors()).anyMatch(e -> e.startsWith("/spec/backoffLimit: must be integer"));
        assertThat(verdicts.get(2).errors())
                .anyMatch(e -> e.startsWith(
                        "/spec/template/spec/containers/0/resources/limits/cpu: must match format \"quantity\""));
        assertThat(verdicts.get(3).errors())
                .anyMatch(e -> e.startsWith("/spec/template/spec/containers/0: must have required property name"));
        assertThat(verdicts.get(4).errors())
                .anyMatch(e -> e.startsWith("/spec/completionMode: must be equal to one of"));
    }

    @Test
    void everyBuilderOfBuiltInKindsMakesValidObjects() throws Exception {
        List<HasMetadata> built = new java.util.ArrayList<>(new WorkloadManifests(SPEC).all());
        built.addAll(new VolumeManifests(SPEC.names(), "fs-0123456789abcdef0").all());
        built.add(DevicePluginManifests.daemonSet(SPEC.names()));

        List<KubernetesModels.Verdict> verdicts = KubernetesModels.installed()
                .validate(built.stream().map(KubernetesModelsTest::json).toList());

        assertThat(verdicts)
                .filteredOn(v -> v.outcome() != KubernetesModels.Outcome.VALID)
                .extracting(KubernetesModels.Verdict::describe)
                .isEmpty();
    }

    @Test
    void anObjectOfAKindWithoutAModelIsUnknownNotPassed() throws Exception {
        JsonNode pyTorchJob = json(new WorkloadManifests(SPEC).pyTorchJob());
        ObjectNode misspelt = trainingJob(job -> {}).deepCopy().put("kind", "Jobs");
        ObjectNode wrongGroup = trainingJob(job -> {}).deepCopy().put("apiVersion", "apps/v1");
        ObjectNode pathLike = trainingJob(job -> {}).deepCopy().put("apiVersion", "../batch/v1");

        List<KubernetesModels.Verdict> verdicts =
                KubernetesModels.installed().validate(List.of(pyTorchJob, misspelt, wrongGroup, pathLike));

        assertThat(verdicts)
                .extracting(KubernetesModels.Verdict::outcome)
                .containsOnly(KubernetesModels.Outcome.UNKNOWN);
        assertThat(verdicts.get(0).errors())
                .singleElement()
                .asString()
                .contains("kubeflow.org/v1", "PyTorchJob", "Kubernetes " + KubernetesModels.KUBERNETES_VERSION);
    }
}
