package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.RunPrices;
import io.trainplane.core.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code plan} prices the Region of AWS_REGION, holds the spec to what it sells, and lists the types that fit. */
class PlanRegionTest {
    private static CliTest.Result plan(Map<String, String> environment, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CliClients clients = RunFixtures.withClock(
                RunFixtures.withEnvironment(CliClients.standard(), environment, () -> {}),
                io.trainplane.TestTime.clock());
        int exit = Main.commandLine(clients)
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(args);
        return new CliTest.Result(exit, out.toString(), err.toString());
    }

    @Test
    void theRegionOfAwsRegionIsPricedWithItsOwnPrices() {
        JsonNode east = Json.read(plan(Map.of(), "plan", "examples/gpu-single-node.json", "--output", "json")
                .out());
        CliTest.Result result =
                plan(Map.of("AWS_REGION", "eu-west-1"), "plan", "examples/gpu-single-node.json", "--output", "json");
        assertThat(result.exit()).as(result.err()).isZero();
        JsonNode west = Json.read(result.out());

        assertThat(east.at("/cost/region").asText()).isEqualTo("us-east-1");
        assertThat(west.at("/cost/region").asText()).isEqualTo("eu-west-1");
        double eastNode = RunPrices.forRegion("us-east-1").instancePerHour("g5.2xlarge");
        double westNode = RunPrices.forRegion("eu-west-1").instancePerHour("g5.2xlarge");
        assertThat(westNode).isGreaterThan(eastNode); // Ireland costs more than N. Virginia
        assertThat(west.at("/cost/lines").findValues("unitPrice"))
                .anySatisfy(p -> assertThat(p.asDouble()).isEqualTo(westNode));
        assertThat(west.at("/cost/totalComplete").asBoolean()).isTrue();
        assertThat(west.at("/cost/total").asDouble())
                .isGreaterThan(east.at("/cost/total").asDouble());
        // AWS_DEFAULT_REGION when AWS_REGION is not set, as the SDKs read them.
        assertThat(RunPrices.regionOf(Map.of("AWS_DEFAULT_REGION", "eu-west-1")))
                .isEqualTo("eu-west-1");
        assertThat(RunPrices.regionOf(Map.of())).isEqualTo("us-east-1");
    }

    @Test
    void anAcceleratorListsTheTypesThatFitCheapestFirst() {
        CliTest.Result text = plan(Map.of(), "plan", "examples/gpu-l4.json");
        assertThat(text.exit()).as(text.err()).isZero();
        assertThat(text.out())
                .contains("# Instance types with L4:1 sold in us-east-1, cheapest first (EC2 catalog of ")
                .containsPattern(
                        "#   g6\\.xlarge +1 NVIDIA L4 GPU \\(22 GiB each\\), 4 vCPUs, 16 GiB, no EFA, on demand \\$[0-9.]+/h,"
                                + " spot \\$[0-9.]+/h  <- the run's");
        JsonNode fits = Json.read(plan(Map.of(), "plan", "examples/gpu-l4.json", "--output", "json")
                        .out())
                .path("instanceTypesThatFit");
        assertThat(fits.findValuesAsText("instanceType"))
                .startsWith("g6.xlarge")
                .contains("g6.2xlarge", "g6.8xlarge");
        double previous = 0;
        for (JsonNode fit : fits) {
            assertThat(fit.path("onDemandPerHour").asDouble()).isGreaterThanOrEqualTo(previous);
            previous = fit.path("onDemandPerHour").asDouble();
        }
    }

    @Test
    void aRegionWithoutPricesLeavesTheInstancesUnpricedAndTheTotalIncomplete() {
        CliTest.Result result =
                plan(Map.of("AWS_REGION", "ap-southeast-4"), "plan", "examples/quickstart.json", "--output", "json");
        assertThat(result.exit()).as(result.err()).isZero();
        JsonNode cost = Json.read(result.out()).path("cost");
        assertThat(cost.path("region").asText()).isEqualTo("ap-southeast-4");
        assertThat(cost.path("totalComplete").asBoolean()).isFalse();
        assertThat(cost.path("unpriced").toString()).contains("c5.2xlarge");
    }

    @Test
    void gpusTheRegionDoesNotSellAreRefusedBeforeAnythingIsCreated() {
        assertThat(io.trainplane.spec.InstanceShapes.offeredIn("g6.xlarge", "eu-west-1"))
                .isFalse();

        CliTest.Result result = plan(Map.of("AWS_REGION", "eu-west-1"), "plan", "examples/gpu-l4.json");

        assertThat(result.exit()).isEqualTo(2);
        assertThat(result.err())
                .contains(
                        "/cluster/nodeGroup/accelerator",
                        "eu-west-1 sells none of the types with those GPUs (g6.xlarge")
                .contains("us-east-1")
                .doesNotContain("\tat ");
        assertThat(result.out()).isEmpty();
    }
}
