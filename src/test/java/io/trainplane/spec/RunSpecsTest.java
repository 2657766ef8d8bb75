package io.trainplane.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunSpecsTest {
    static final String MINIMAL = "{\"cluster\": {\"mode\": \"existing\", \"name\": \"ml-training\"}}";

    @Test
    void minimalSpecGetsEveryDefault() {
        RunSpec spec = RunSpecs.parse(MINIMAL);

        assertThat(spec.runId()).isNull();
        assertThat(spec.cluster()).isEqualTo(new ClusterSpec(ClusterMode.EXISTING, "ml-training", null, null));
        assertThat(spec.volume()).isEqualTo(new VolumeSpec(VolumeType.NONE, null));
        assertThat(spec.data()).isEqualTo(new DataSpec(DataSource.SYNTHETIC, null, null, null, 2000));
        assertThat(spec.training())
                .isEqualTo(new TrainingSpec(
                        Launcher.INDEXED_JOB,
                        "pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime",
                        2,
                        1,
                        10,
                        128,
                        0.01,
                        "2",
                        "4Gi",
                        0,
                        3,
                        3,
                        240,
                        null));
        assertThat(spec.evaluation()).isEqualTo(new EvaluationSpec("accuracy", null, null));
        assertThat(spec.cleanup()).isEqualTo(new CleanupSpec(false, false));
        assertThat(spec.maxRunHours()).isEqualTo(12);
    }

    @Test
    void normalizedJsonRoundTripsToTheSameRecord() {
        RunSpec spec = RunSpecs.parse(MINIMAL);
        ObjectNode normalized = RunSpecs.normalize(MINIMAL);

        assertThat(normalized).isEqualTo(spec.toJson());
        assertThat(RunSpecs.parse(normalized.toString())).isEqualTo(spec);
        assertThat(RunSpecs.parse(normalized)).isEqualTo(spec);
        assertThat(RunSpecs.normalize(normalized.toString())).isEqualTo(normalized);
    }

    @Test
    void aNormalizedSpecIsReadBackWithoutValidationToTheSameRecord() {
        String full = "{\"runId\": \"r-1\", \"cluster\": {\"mode\": \"create\", \"nodeGroup\": "
                + "{\"instanceType\": \"g5.12xlarge\", \"nodes\": 2, \"gpusPerNode\": 4}},"
                + " \"volume\": {\"type\": \"efs\"}, \"training\": {\"workers\": 2, \"gpusPerWorker\": 4, \"procsPerWorker\": 4},"
                + " \"cleanup\": {\"keepVolume\": true}}";
        RunSpec spec = RunSpecs.parse(full);
        ObjectNode normalized = RunSpecs.normalize(full);

        assertThat(RunSpecs.fromNormalized(normalized)).isEqualTo(spec);
        assertThat(RunSpecs.fromNormalized(normalized.toString())).isEqualTo(spec);
    }

    @Test
    void normalizedJsonHasEveryFieldAndNoNulls() {
        ObjectNode normalized = RunSpecs.normalize(MINIMAL);

        assertThat(normalized.toString()).doesNotContain("null");
        assertThat(fieldNames(normalized))
                .containsExactly(
                        "cluster", "volume", "data", "training", "evaluation", "output", "cleanup", "maxRunHours");
        assertThat(fieldNames(normalized.get("training")))
                .containsExactly(
                        "launcher",
                        "image",
                        "workers",
                        "procsPerWorker",
                        "epochs",
                        "batchSize",
                        "learningRate",
                        "cpu",
                        "memory",
                        "gpusPerWorker",
                        "maxRestarts",
                        "maxInterruptions",
                        "timeoutMinutes");
        assertThat(normalized.at("/data/syntheticSamples").asInt()).isEqualTo(2000);
    }

    @Test
    void everyDefaultComesFromTheSchema() {
        JsonNode schema = RunSpecs.schema();
        ObjectNode normalized = RunSpecs.normalize(MINIMAL);
        for (String section : List.of("volume", "data", "training", "evaluation", "cleanup")) {
            for (Map.Entry<String, JsonNode> property :
                    schema.at("/properties/" + section + "/properties").properties()) {
                JsonNode expected = property.getValue().get("default");
                if (expected != null) {
                    JsonNode actual = normalized.at("/" + section + "/" + property.getKey());
                    String field = section + "." + property.getKey();
                    if (expected.isNumber()) {
                        assertThat(actual.asDouble()).as(field).isEqualTo(expected.asDouble());
                    } else {
                        assertThat(actual).as(field).isEqualTo(expected);
                    }
                }
            }
        }
        assertThat(normalized.get("maxRunHours").asInt())
                .isEqualTo(schema.at("/properties/maxRunHours/default").asInt());
    }

    @Test
    void givenValuesWinOverDefaultsAndRoundTrip() {
        String json =
                """
                {
                  "runId": "cifar10-nightly-001",
                  "cluster": { "mode": "existing", "name": "warm_cluster-1" },
                  "volume": { "type": "none" },
                  "data": { "source": "synthetic", "syntheticSamples": 500 },
                  "training": { "launcher": "indexed-job", "image": "123456789012.dkr.ecr.eu-west-1.amazonaws.com/train:v1",
                                "workers": 4, "procsPerWorker": 2, "epochs": 3, "batchSize": 64, "learningRate": 0.1,
                                "cpu": "500m", "memory": "512Mi", "gpusPerWorker": 2, "maxRestarts": 0,
                                "maxInterruptions": 5, "timeoutMinutes": 60 },
                  "evaluation": { "minAccuracy": 0.7 },
                  "cleanup": { "keepCluster": true, "keepVolume": true },
                  "maxRunHours": 2
                }""";
        RunSpec spec = RunSpecs.parse(json);

        assertThat(spec.runId()).isEqualTo("cifar10-nightly-001");
        assertThat(spec.data().syntheticSamples()).isEqualTo(500);
        assertThat(spec.training())
                .isEqualTo(new TrainingSpec(
                        Launcher.INDEXED_JOB,
                        "123456789012.dkr.ecr.eu-west-1.amazonaws.com/train:v1",
                        4,
                        2,
                        3,
                        64,
                        0.1,
                        "500m",
                        "512Mi",
                        2,
                        0,
                        5,
                        60,
                        null));
        assertThat(spec.evaluation().min()).isEqualTo(0.7);
        assertThat(spec.cleanup()).isEqualTo(new CleanupSpec(true, true));
        assertThat(RunSpecs.parse(spec.toJson().toString())).isEqualTo(spec);
    }

    @Test
    void wholeNumbersWrittenAsDecimalsAreAccepted() {
        RunSpec spec = RunSpecs.parse("{\"cluster\": {\"mode\": \"existing\", \"name\": \"c\"},"
                + " \"training\": {\"workers\": 4.0, \"learningRate\": 1}, \"maxRunHours\": 6.0}");

        assertThat(spec.training().workers()).isEqualTo(4);
        assertThat(spec.training().learningRate()).isEqualTo(1.0);
        assertThat(spec.toJson().at("/training/workers").isInt()).isTrue();
    }

    @Test
    void withRunIdNamesTheRun() {
        RunSpec spec = RunSpecs.parse(MINIMAL).withRunId("exec-42");

        assertThat(spec.runId()).isEqualTo("exec-42");
        assertThat(spec.names().namespace()).isEqualTo("tp-exec-42");
        assertThat(RunSpecs.parse(spec.toJson().toString())).isEqualTo(spec);
    }

    @Test
    void withRunIdRefusesAnInvalidId() {
        RunSpec spec = RunSpecs.parse(MINIMAL);

        assertThatThrownBy(() -> spec.withRunId("Nightly_Run"))
                .isInstanceOfSatisfying(InvalidSpecException.class, e -> {
                    assertThat(e.problems()).singleElement().satisfies(p -> {
                        assertThat(p.pointer()).isEqualTo("/runId");
                        assertThat(p.hint()).isNotBlank();
                    });
                });
        assertThatThrownBy(spec::names).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aWarmClusterNamesItsNodegroupAndRoundTrips() {
        String warm = "{\"cluster\": {\"mode\": \"warm\", \"name\": \"ml\", \"nodegroupName\": \"gpu-workers\","
                + " \"nodes\": 3}}";
        RunSpec spec = RunSpecs.parse(warm);
        assertThat(spec.cluster())
                .isEqualTo(new ClusterSpec(ClusterMode.WARM, "ml", null, null, "gpu-workers", 3, null));
        assertThat(spec.cluster().warm()).isTrue();
        assertThat(spec.cluster().created()).isFalse();
        assertThat(RunSpecs.parse(spec.toJson().toString())).isEqualTo(spec);
    }

    @Test
    void aWarmClusterWithoutItsNodegroupOrAnExistingOneWithNodesIsRefused() {
        assertThat(RunSpecs.problems("{\"cluster\": {\"mode\": \"warm\", \"name\": \"ml\"}}"))
                .anySatisfy(p -> assertThat(p.pointer() + " " + p.message()).contains("nodegroupName"));
        assertThat(RunSpecs.problems(
                        "{\"cluster\": {\"mode\": \"existing\", \"name\": \"ml\", \"nodegroupName\": \"gpu\"}}"))
                .anySatisfy(p -> assertThat(p.pointer()).isEqualTo("/cluster/nodegroupName"));
        assertThat(RunSpecs.problems("{\"cluster\": {\"mode\": \"warm\", \"name\": \"ml\", \"nodegroupName\": \"gpu\","
                        + " \"nodes\": 0}}"))
                .anySatisfy(p -> assertThat(p.pointer()).isEqualTo("/cluster/nodes"));
    }

    @Test
    void problemsOfAValidSpecIsEmpty() {
        assertThat(RunSpecs.problems(MINIMAL)).isEmpty();
    }

    @Test
    void schemaIsACopy() {
        ((ObjectNode) RunSpecs.schema()).put("title", "changed");

        assertThat(RunSpecs.schema().get("title").asText()).isEqualTo("Trainplane run spec");
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** Restarts are for node loss: one worker has no survivor that needs them, so a crash fails at once. */
    @Test
    void maxRestartsDefaultsToWhatNodeLossNeeds() {
        java.util.function.Function<String, Integer> restarts = training -> RunSpecs.parse(
                        "{\"cluster\": {\"mode\": \"existing\", \"name\": \"ml\"}, \"training\": " + training + "}")
                .training()
                .maxRestarts();

        assertThat(restarts.apply("{\"workers\": 1}")).isZero();
        assertThat(restarts.apply("{\"workers\": 2}")).isEqualTo(3);
        assertThat(restarts.apply("{\"workers\": 2, \"maxInterruptions\": 5}")).isEqualTo(5);
        assertThat(restarts.apply("{\"workers\": 1, \"maxRestarts\": 2}")).isEqualTo(2);
        // The normalized spec, restarts filled in, is a valid spec again (StartRun parses it).
        String most =
                "{\"cluster\": {\"mode\": \"existing\", \"name\": \"ml\"}, \"training\": {\"maxInterruptions\": 20}}";
        assertThat(RunSpecs.parse(RunSpecs.normalize(most)).training().maxRestarts())
                .isEqualTo(20);
        // A PyTorchJob's maxRestarts is also its pods' backoffLimit: left as it was.
        assertThat(restarts.apply("{\"workers\": 1, \"launcher\": \"pytorchjob\"}"))
                .isEqualTo(3);
    }
}
