package io.trainplane.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The written-out mapping agrees with what Jackson's data binding makes of the records (their
 * annotations name the spellings): the same normalized document, field for field and in the same
 * order (it is hashed), and the same record back. A record field the mapping forgets fails here.
 */
class SpecRecordsTest {
    static List<String> specs() throws IOException {
        List<String> specs = new ArrayList<>();
        try (var files = Files.list(Path.of("examples"))) {
            // The run specs; examples/ also holds workloads' code in directories.
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                specs.add(Files.readString(file));
            }
        }
        specs.add(RunSpecsTest.MINIMAL);
        // Every optional field set, every enum at another value, whole numbers for the fractions.
        specs.add(
                """
                {"runId": "r-2", "cluster": {"mode": "create", "nodeGroup": {"instanceType": "p4d.24xlarge", "nodes": 2,
                  "gpusPerNode": 8, "capacityType": "CAPACITY_BLOCK", "capacityReservationId": "cr-0123456789abcdef0", "efa": true}},
                 "volume": {"type": "efs", "fileSystemId": "fs-01234567"},
                 "data": {"source": "url", "url": "https://example.com/d.tar.gz", "sha256": "%s"},
                 "training": {"launcher": "pytorchjob", "workers": 2, "gpusPerWorker": 8, "procsPerWorker": 8, "learningRate": 1},
                 "evaluation": {"minAccuracy": 1}, "cleanup": {"keepCluster": true, "keepVolume": true}, "maxRunHours": 48}
                """
                        .formatted("a".repeat(64)));
        // A workload of your image: every field, the commands' lists and maps, each kind of hyperparameter.
        specs.add(
                """
                {"cluster": {"mode": "existing", "name": "ml"},
                 "workload": {"image": "ghcr.io/me/t:1", "code": "image", "launcher": "none",
                   "commands": {"prepare": {"args": ["python", "p.py"]},
                                "train": {"args": ["python", "t.py"], "env": {"B": "2", "A": "1"}}},
                   "hyperparameters": {"epochs": 3, "lr": 1e-4, "opt": "adamw", "amp": true}}}
                """);
        specs.add(
                """
                {"cluster": {"mode": "create", "nodeGroup": {"instanceType": "c5.2xlarge", "nodes": 1, "capacityType": "SPOT"}},
                 "data": {"source": "s3", "s3Uri": "s3://my-bucket/data/k.tar.gz"}}
                """);
        return specs;
    }

    @ParameterizedTest
    @MethodSource("specs")
    void writesAndReadsWhatJacksonDataBindingDoes(String json) throws Exception {
        assertThat(RunSpecs.problems(json)).isEmpty();
        RunSpec spec = RunSpecs.parse(json);
        ObjectNode bound = Json.strictMapper().valueToTree(spec);

        assertThat(SpecRecords.toJson(spec)).isEqualTo(bound);
        assertThat(SpecRecords.toJson(spec).toString()).isEqualTo(bound.toString());
        assertThat(SpecRecords.fromJson(bound))
                .isEqualTo(Json.strictMapper().treeToValue(bound, RunSpec.class))
                .isEqualTo(spec);
    }

    @Test
    void aDocumentWithoutARequiredPartIsRefusedByName() throws Exception {
        ObjectNode normalized = RunSpecs.normalize(RunSpecsTest.MINIMAL);
        normalized.remove("training");

        assertThatThrownBy(() -> SpecRecords.fromJson(normalized))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("training");
    }

    @Test
    void anUnknownSpellingIsRefused() throws Exception {
        ObjectNode normalized = RunSpecs.normalize(RunSpecsTest.MINIMAL);
        normalized.with("training").put("launcher", "horovod");

        assertThatThrownBy(() -> SpecRecords.fromJson(normalized))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"horovod\" is no Launcher");
    }
}
