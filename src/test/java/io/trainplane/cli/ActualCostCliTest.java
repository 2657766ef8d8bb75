package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's actual cost, as a user gets it: plan the quickstart, run it locally, then read the cost
 * with {@code status} (beside the plan's estimate) and {@code list} (duration, cost, accuracy).
 */
class ActualCostCliTest {
    @TempDir
    static Path store;

    static JsonNode plan;

    @TempDir
    static Path specs;

    @BeforeAll
    static void planAndRunTheQuickstart() throws java.io.IOException {
        CliTest.Result planned = LocalStoreCommandsTest.cli("plan", "examples/quickstart.json", "--output", "json");
        assertThat(planned.exit()).as(planned.err()).isZero();
        plan = Json.read(planned.out()).path("cost");
        assertThat(plan.path("worstCase").path("total").asDouble()).isPositive();
        CliTest.Result ran = LocalStoreCommandsTest.cli(
                "run", "examples/quickstart.json", "--runtime", "simulated", "--store", store.toString());
        assertThat(ran.exit()).as(ran.err()).isZero();
        Path failing = specs.resolve("failing.json");
        java.nio.file.Files.writeString(
                failing,
                java.nio.file.Files.readString(Path.of("examples/quickstart.json"))
                        .replace("\"quickstart\"", "\"quickstart-failed\""));
        CliTest.Result failed = LocalStoreCommandsTest.cli(
                "run", failing.toString(), "--fail-at", "CheckEvaluation", "--store", store.toString());
        assertThat(failed.exit()).as(failed.err()).isEqualTo(Main.FAILED);
    }

    @Test
    void theQuickstartCostsMoreThanNothingAndNoMoreThanThePlansWorstCase() {
        CliTest.Result status =
                LocalStoreCommandsTest.cli("status", "quickstart", "--store", store.toString(), "--output", "json");
        assertThat(status.exit()).as(status.err()).isZero();
        JsonNode cost = Json.read(status.out()).path("cost");
        double actual = cost.path("actual").path("total").asDouble();
        assertThat(actual).as(status.out()).isPositive();
        assertThat(actual)
                .isLessThanOrEqualTo(plan.path("worstCase").path("total").asDouble());
        assertThat(cost.path("estimate").path("worstCaseTotal").asDouble())
                .isEqualTo(plan.path("worstCase").path("total").asDouble());
        // What it used, item by item: the nodes of the spec, the control plane, the volume, the workflow.
        assertThat(cost.path("actual").path("lines").findValuesAsText("item"))
                .contains(
                        "EC2 2 × c5.2xlarge",
                        "EKS control plane",
                        "EFS storage",
                        "Step Functions transitions",
                        "Lambda");
        double sum = 0;
        for (JsonNode line : cost.path("actual").path("lines")) {
            assertThat(line.path("quantity").asDouble()).as(line.toString()).isPositive();
            sum += line.path("cost").asDouble();
        }
        assertThat(sum).isCloseTo(actual, org.assertj.core.data.Offset.offset(1e-5));
        // Simulated time: the run lasts half an hour or so, cleanup included.
        assertThat(cost.path("actual").path("hours").asDouble()).isBetween(0.3, 4.0);
    }

    @Test
    void statusShowsTheActualCostBesideThePlan() {
        CliTest.Result status = LocalStoreCommandsTest.cli("status", "quickstart", "--store", store.toString());
        assertThat(status.exit()).as(status.err()).isZero();
        assertThat(status.out())
                .containsPattern("cost: +actual \\$\\d+\\.\\d+ \\(USD, \\d+\\.\\d\\d h, us-east-1 prices of ")
                .containsPattern("plan: expected \\$\\d+\\.\\d\\d, worst case \\$\\d+\\.\\d\\d")
                .containsPattern("EKS control plane +\\d+\\.\\d+ hour +\\$\\d+\\.\\d+ +\\$\\d+\\.\\d+");
    }

    @Test
    void aFailedRunHasItsCostToo() {
        CliTest.Result status = LocalStoreCommandsTest.cli(
                "status", "quickstart-failed", "--store", store.toString(), "--output", "json");
        assertThat(status.exit()).as(status.err()).isZero();
        JsonNode n = Json.read(status.out());
        assertThat(n.path("status").asText()).isEqualTo("FAILED");
        assertThat(n.path("cost").path("actual").path("total").asDouble()).isPositive();
    }

    @Test
    void listShowsDurationCostAndAccuracy() {
        CliTest.Result text = LocalStoreCommandsTest.cli("list", "--store", store.toString());
        assertThat(text.exit()).as(text.err()).isZero();
        assertThat(text.out())
                .containsPattern("RUN +STATUS +PHASE +CREATED +DURATION +COST +ACCURACY")
                .containsPattern("quickstart +SUCCEEDED .* \\d+m\\d\\ds +\\$\\d+\\.\\d+ +0\\.\\d{4}");
        CliTest.Result json = LocalStoreCommandsTest.cli("list", "--store", store.toString(), "--output", "json");
        JsonNode runs = Json.read(json.out());
        for (JsonNode r : runs) {
            assertThat(r.path("durationSeconds").asLong()).as(r.toString()).isPositive();
            assertThat(r.path("actualCost").asDouble()).as(r.toString()).isPositive();
        }
        JsonNode succeeded = runs.findParents("runId").stream()
                .filter(r -> r.path("runId").asText().equals("quickstart"))
                .findFirst()
                .orElseThrow();
        assertThat(succeeded.path("accuracy").asDouble()).isBetween(0.6, 1.0);
        // The duration is the run's own (start to the end of its cleanup), the hours its cost was priced for.
        JsonNode status = Json.read(
                LocalStoreCommandsTest.cli("status", "quickstart", "--store", store.toString(), "--output", "json")
                        .out());
        assertThat(succeeded.path("durationSeconds").asDouble())
                .isCloseTo(status.at("/cost/actual/hours").asDouble() * 3600, org.assertj.core.data.Offset.offset(1.0));
    }
}
