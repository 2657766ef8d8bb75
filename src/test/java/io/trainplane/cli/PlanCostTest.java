package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import io.trainplane.runs.CostEstimate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The estimate of {@code plan}, checked against numbers worked out by hand from the price table and the model. */
class PlanCostTest {
    @TempDir
    Path dir;

    static final String SPEC =
            """
            {"runId": "cost-check",
             "cluster": {"mode": "create", "kubernetesVersion": "1.35",
                         "nodeGroup": {"instanceType": "g5.2xlarge", "nodes": 2, "gpusPerNode": 1}},
             "volume": {"type": "efs"},
             "training": {"workers": 2, "procsPerWorker": 1, "gpusPerWorker": 1, "epochs": 20, "timeoutMinutes": 240},
             "maxRunHours": 6}
            """;

    /** The day of these estimates: 1.35 in standard support, 1.31 in extended support. */
    static final String DAY = "2026-11-23";

    static Clock on(String day) {
        return Clock.fixed(Instant.parse(day + "T12:00:00Z"), ZoneOffset.UTC);
    }

    JsonNode cost(String spec) throws IOException {
        return cost(spec, DAY);
    }

    JsonNode cost(String spec, String day) throws IOException {
        CliTest.Result r = plan(spec, day);
        assertThat(r.exit()).as(r.err()).isZero();
        return Json.read(r.out()).path("cost");
    }

    CliTest.Result plan(String spec, String day) throws IOException {
        Path f = dir.resolve("spec.json");
        Files.writeString(f, spec);
        return CliTest.cli(on(day), "plan", "--output", "json", f.toString());
    }

    static String item(JsonNode lines, String prefix) {
        for (JsonNode l : lines) {
            if (l.path("item").asText().startsWith(prefix)) {
                return l.path("item").asText();
            }
        }
        throw new AssertionError("no line " + prefix + " in " + lines);
    }

    static double line(JsonNode lines, String prefix, String field) {
        for (JsonNode l : lines) {
            if (l.path("item").asText().startsWith(prefix)) {
                return l.path(field).asDouble();
            }
        }
        throw new AssertionError("no line " + prefix + " in " + lines);
    }

    @Test
    void aWarmClustersNodesArePricedWithItsInstanceTypeAndListed() throws IOException {
        String warm = "{\"runId\": \"warm-check\", \"cluster\": {\"mode\": \"warm\", \"name\": \"ml\","
                + " \"nodegroupName\": \"gpu-workers\", \"nodes\": 2, \"instanceType\": \"g5.xlarge\"},"
                + " \"training\": {\"workers\": 2, \"gpusPerWorker\": 1}}";
        JsonNode cost = cost(warm);
        double hours = cost.path("expectedHours").asDouble();
        JsonNode lines = cost.path("lines");
        assertThat(item(lines, "EC2")).isEqualTo("EC2 2 × g5.xlarge (warm node group)");
        assertThat(line(lines, "EC2", "quantity")).isCloseTo(2 * hours, within(1e-4));
        assertThat(line(lines, "EC2", "unitPrice")).isCloseTo(1.006, within(1e-4));
        assertThat(plan(warm, DAY).out())
                .contains("EKS node group gpu-workers of ml (warm: claimed for the run, scaled from 0 to 2 nodes");
        // Without its type the plan says it does not price the nodes.
        JsonNode unpriced = cost(warm.replace(", \"instanceType\": \"g5.xlarge\"", ""));
        assertThat(unpriced.path("lines").toString()).doesNotContain("warm node group");
        assertThat(unpriced.path("assumptions").toString()).contains("give cluster.instanceType to price them");
    }

    @Test
    void theExpectedAndWorstCaseTablesAddUp() throws IOException {
        JsonNode cost = cost(SPEC);
        assertThat(cost.path("estimate").asBoolean()).isTrue();
        assertThat(cost.path("region").asText()).isEqualTo("us-east-1");

        // 20 epochs × 25 s (g5) = 500 s of training, + 0.5 h of provisioning and teardown.
        double hours = 500.0 / 3600 + 0.5;
        assertThat(cost.path("expectedHours").asDouble()).isCloseTo(hours, within(1e-4));
        JsonNode lines = cost.path("lines");
        assertThat(line(lines, "EC2", "quantity")).isCloseTo(2 * hours, within(1e-4));
        assertThat(line(lines, "EC2", "cost")).isCloseTo(2 * hours * 1.212, within(1e-4));
        assertThat(item(lines, "EKS control plane")).isEqualTo("EKS control plane");
        assertThat(line(lines, "EKS control plane", "cost")).isCloseTo(hours * 0.10, within(1e-4));
        assertThat(line(lines, "EFS storage", "cost")).isCloseTo(2.0 * hours / 730 * 0.30, within(1e-4));
        assertThat(line(lines, "EFS elastic throughput, writes", "cost")).isCloseTo(0.12, within(1e-4));
        assertThat(line(lines, "EFS elastic throughput, reads", "cost")).isCloseTo(0.2 * 21 * 0.03, within(1e-4));
        // 40 setup polls + ceil(500 / 120) = 5 training polls; 60 + 3 × 45 = 195 transitions; (30 + 45) × 2 GB-s.
        assertThat(line(lines, "Step Functions", "quantity")).isCloseTo(0.195, within(1e-6));
        assertThat(line(lines, "Step Functions", "cost")).isCloseTo(0.195 * 0.025, within(1e-6));
        assertThat(line(lines, "Lambda", "quantity")).isCloseTo(150, within(1e-6));
        assertThat(line(lines, "Lambda", "cost")).isCloseTo(150 * 0.0000166667, within(1e-6));
        assertThat(line(lines, "EC2 1 × m5.large (system)", "cost")).isCloseTo(hours * 0.096, within(1e-4));
        // Root volumes: 2 workers × 30 GiB (the default for the PyTorch image) + 1 system node × 20 GiB, at $0.08 a
        // GB-month.
        assertThat(line(lines, "EBS gp3 root volumes", "quantity")).isCloseTo(80 * hours / 730, within(1e-6));
        assertThat(line(lines, "EBS gp3 root volumes", "cost")).isCloseTo(80 * hours / 730 * 0.08, within(1e-6));
        // Control-plane logs: 0.05 GB an hour at $0.50 a GB ingested.
        assertThat(line(lines, "CloudWatch Logs, control plane", "cost")).isCloseTo(0.05 * hours * 0.50, within(1e-6));
        // Each of the 3 nodes pulls the 3.4 GB PyTorch image and 0.5 GB of Trainplane's; the data is synthetic.
        assertThat(line(lines, "NAT gateway processing", "quantity")).isCloseTo(11.7, within(1e-6));
        assertThat(line(lines, "NAT gateway processing", "cost")).isCloseTo(11.7 * 0.045, within(1e-6));
        assertThat(line(lines, "Data transfer in", "quantity")).isCloseTo(11.7, within(1e-6));
        assertThat(line(lines, "Data transfer in", "cost")).isZero();
        // S3: 0.5 GB kept a month; 10 + 2 × 20 epochs + ceil(500 / 60) = 9 syncs = 59 PUTs and LISTs; 10 GETs.
        assertThat(line(lines, "S3 storage", "cost")).isCloseTo(0.5 * 0.023, within(1e-6));
        assertThat(line(lines, "S3 PUT and LIST", "quantity")).isCloseTo(0.059, within(1e-6));
        assertThat(line(lines, "S3 PUT and LIST", "cost")).isCloseTo(0.059 * 0.005, within(1e-6));
        assertThat(line(lines, "S3 GET", "cost")).isCloseTo(0.01 * 0.0004, within(1e-9));
        double usage = 80 * hours / 730 * 0.08
                + 0.05 * hours * 0.50
                + 11.7 * 0.045
                + 0.5 * 0.023
                + 0.059 * 0.005
                + 0.01 * 0.0004;
        double total = 2 * hours * 1.212
                + hours * 0.096
                + hours * 0.10
                + 2.0 * hours / 730 * 0.30
                + 0.12
                + 0.126
                + 0.004875
                + 0.0025
                + usage;
        assertThat(cost.path("total").asDouble()).isCloseTo(total, within(1e-3));

        JsonNode worst = cost.path("worstCase");
        assertThat(worst.path("hours").asDouble()).isEqualTo(6.0);
        // 40 + 6 × 3600 / 120 = 220 polls: 720 transitions, 500 GB-s.
        // The usage for 6 h: 10 + 40 + 360 syncs = 410 PUTs and LISTs.
        double worstUsage =
                80 * 6 / 730.0 * 0.08 + 0.05 * 6 * 0.50 + 11.7 * 0.045 + 0.5 * 0.023 + 0.410 * 0.005 + 0.01 * 0.0004;
        double worstTotal = 12 * 1.212
                + 6 * 0.096
                + 0.6
                + 2.0 * 6 / 730 * 0.30
                + 0.12
                + 0.126
                + 0.720 * 0.025
                + 500 * 0.0000166667
                + worstUsage;
        assertThat(worst.path("total").asDouble()).isCloseTo(worstTotal, within(1e-3));
    }

    @Test
    void aVersionInExtendedSupportPricesTheControlPlaneAtTheExtendedRate() throws IOException {
        String spec131 = SPEC.replace("\"1.35\"", "\"1.31\"");
        JsonNode standard = cost(SPEC, "2026-11-25");
        JsonNode extended = cost(spec131, "2026-11-25");

        double hours = 500.0 / 3600 + 0.5;
        assertThat(item(extended.path("lines"), "EKS control plane")).isEqualTo("EKS control plane, extended support");
        assertThat(line(extended.path("lines"), "EKS control plane", "unitPrice"))
                .isEqualTo(0.60);
        assertThat(line(extended.path("lines"), "EKS control plane", "cost")).isCloseTo(hours * 0.60, within(1e-4));
        assertThat(line(extended.path("worstCase").path("lines"), "EKS control plane", "cost"))
                .isCloseTo(6 * 0.60, within(1e-6));
        assertThat(extended.path("total").asDouble() - standard.path("total").asDouble())
                .isCloseTo(hours * 0.50, within(1e-4));
        assertThat(extended.path("assumptions").toString())
                .contains(
                        "Kubernetes 1.31 is in EKS extended support on 2026-11-25 (it ends on 2026-11-26): the control plane"
                                + " costs $0.60 an hour instead of $0.10");
        assertThat(standard.path("assumptions").toString()).doesNotContain("extended support");
    }

    @Test
    void aVersionPastItsExtendedSupportIsRefusedWithoutAPlan() throws IOException {
        CliTest.Result r = plan(SPEC.replace("\"1.35\"", "\"1.31\""), "2026-11-27");

        assertThat(r.exit()).isEqualTo(Main.INVALID_INPUT);
        // No plan: with --output json, stdout holds only the error object.
        JsonNode error = io.trainplane.core.Json.read(r.out());
        assertThat(error.fieldNames()).toIterable().containsExactly("error");
        assertThat(error.path("error").path("code").asText()).isEqualTo("InvalidSpec");
        assertThat(error.path("error").path("problems").path(0).path("pointer").asText())
                .isEqualTo("/cluster/kubernetesVersion");
        assertThat(error.path("error").path("problems").path(0).path("message").asText())
                .contains("reached the end of EKS extended support on 2026-11-26", "1.32, 1.33, 1.34, 1.35");
        assertThat(r.out() + r.err()).doesNotContain("Exception");
    }

    @Test
    void aVersionLeavingStandardSupportWithinSixtyDaysIsWarnedOfWithWhatItWillCost() throws IOException {
        // 1.34 leaves standard support on 2026-12-02; 1.35 on 2027-03-27 (more than 60 days after 2026-11-27).
        CliTest.Result leaving = plan(SPEC.replace("\"1.35\"", "\"1.34\""), "2026-11-27");
        CliTest.Result staying = plan(SPEC, "2026-11-27");

        assertThat(leaving.exit()).as(leaving.err()).isZero();
        assertThat(Json.read(leaving.out()).path("warnings").path(0).asText())
                .isEqualTo("cluster.kubernetesVersion \"1.34\" leaves EKS standard support on 2026-12-02 (in 5 days):"
                        + " from then its control plane costs $0.60 an hour instead of $0.10 (extended support, until"
                        + " 2027-12-02, when EKS stops creating clusters with it); \"1.36\" is in standard support"
                        + " until 2027-08-02");
        assertThat(Json.read(staying.out()).path("warnings")).isEmpty();
        // 60 days before 1.35's end of standard support, it is warned of too.
        assertThat(Json.read(plan(SPEC, "2027-01-26").out())
                        .path("warnings")
                        .path(0)
                        .asText())
                .startsWith(
                        "cluster.kubernetesVersion \"1.35\" leaves EKS standard support on 2027-03-27 (in 60 days)");
        assertThat(Json.read(plan(SPEC, "2027-01-25").out()).path("warnings")).isEmpty();
    }

    @Test
    void moreNodesThanDockerHubLetsOneAddressPullInAnHourAreWarnedOf() throws IOException {
        String tenNodes = SPEC.replace("\"nodes\": 2", "\"nodes\": 9");
        JsonNode warnings = Json.read(plan(tenNodes, "2026-11-27").out()).path("warnings");

        assertThat(warnings.toString())
                .contains("10 nodes pull pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime from Docker Hub anonymously")
                .contains("10 pulls an hour", "Amazon ECR");
        assertThat(Json.read(plan(SPEC, "2026-11-27").out()).path("warnings").toString())
                .doesNotContain("Docker Hub");
    }

    @Test
    void validateWarnsOnStderrAndStillSaysValid() throws IOException {
        Path f = dir.resolve("spec.json");
        Files.writeString(f, SPEC.replace("\"1.35\"", "\"1.32\""));
        CliTest.Result r = CliTest.cli(on("2026-11-27"), "validate", f.toString());

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("valid.");
        assertThat(r.err())
                .startsWith("warning: cluster.kubernetesVersion \"1.32\" left EKS standard support on 2026-03-23:"
                        + " its control plane costs $0.60 an hour instead of $0.10");
    }

    @Test
    void aDefaultVersionPastTheCalendarsStandardSupportWarnsThatTheCalendarIsOutOfDate() throws IOException {
        var newest = io.trainplane.spec.KubernetesVersions.all().getLast();
        String day = newest.endOfStandardSupport().plusDays(1).toString();
        CliTest.Result r = plan(SPEC.replace("\"kubernetesVersion\": \"1.35\",", ""), day);

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(Json.read(r.out()).path("warnings").toString())
                .contains("this build's calendar of EKS versions", "has no version in standard support on " + day);
    }

    @Test
    void theTextPlanSaysExtendedSupport() throws IOException {
        Path f = dir.resolve("spec.json");
        Files.writeString(f, SPEC.replace("\"1.35\"", "\"1.31\""));
        CliTest.Result r = CliTest.cli(on("2026-11-25"), "plan", f.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("EKS control plane, extended support", "$0.6 ");
    }

    @Test
    void trainingTimeIsCappedByTheTimeoutAndExistingClustersCostNoNodes() throws IOException {
        JsonNode capped = cost(
                """
                {"runId": "cost-cap", "cluster": {"mode": "create", "kubernetesVersion": "1.35",
                  "nodeGroup": {"instanceType": "c5.2xlarge", "nodes": 1}},
                 "training": {"workers": 1, "procsPerWorker": 1, "epochs": 100, "timeoutMinutes": 60}, "maxRunHours": 4}
                """);
        // 100 × 240 s = 6.67 h, capped at 1 h by the timeout, + 0.5 h.
        assertThat(capped.path("expectedHours").asDouble()).isCloseTo(1.5, within(1e-4));
        assertThat(capped.path("assumptions").toString()).contains("timeoutMinutes");

        JsonNode existing = cost(
                """
                {"runId": "cost-existing", "cluster": {"mode": "existing", "name": "warm"}, "volume": {"type": "none"}}
                """);
        assertThat(existing.path("lines").toString()).doesNotContain("EC2", "EKS control plane");
    }

    @Test
    void theTextPlanShowsTheEstimate() throws IOException {
        Path f = dir.resolve("spec.json");
        Files.writeString(f, SPEC);
        CliTest.Result r = CliTest.cli(on(DAY), "plan", f.toString());
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("Cost ESTIMATE", "worst case", "g5.2xlarge", "(estimate)");
    }

    @Test
    void aSpotNodeGroupIsPricedAtTheHighestSpotPriceOfItsTypesWithTheOnDemandPriceBeside() throws IOException {
        String spot =
                """
                {"runId": "spot-cost",
                 "cluster": {"mode": "create", "kubernetesVersion": "1.35",
                             "nodeGroup": {"instanceTypes": ["c5.2xlarge", "c5a.2xlarge", "c6i.2xlarge"], "nodes": 2,
                                           "capacityType": "SPOT"}},
                 "training": {"workers": 2, "epochs": 10, "cpu": "6", "memory": "12Gi"},
                 "maxRunHours": 4}
                """;
        JsonNode prices = Json.read(Files.readString(Path.of("src/main/resources/prices/us-east-1.json")));
        List<String> types = List.of("c5.2xlarge", "c5a.2xlarge", "c6i.2xlarge");
        double spotPrice = types.stream()
                .mapToDouble(t -> prices.path("spotInstances").path(t).asDouble())
                .max()
                .orElseThrow();
        double onDemandPrice = types.stream()
                .mapToDouble(t -> prices.path("instances").path(t).asDouble())
                .max()
                .orElseThrow();
        assertThat(spotPrice).isPositive().isLessThan(onDemandPrice);

        JsonNode cost = cost(spot);
        // 10 epochs at the slowest listed type's seconds per epoch (c5a and c6i have no figure of
        // their own: the default 300 s, slower than c5's 240 s), + 0.5 h.
        double perEpoch =
                types.stream().mapToDouble(CostEstimate::secondsPerEpoch).max().orElseThrow();
        assertThat(perEpoch).isEqualTo(CostEstimate.DEFAULT_SECONDS_PER_EPOCH);
        double hours = 10 * perEpoch / 3600 + 0.5;
        assertThat(cost.path("expectedHours").asDouble()).isCloseTo(hours, within(1e-6));
        JsonNode lines = cost.path("lines");
        String nodes = "EC2 2 × c5.2xlarge|c5a.2xlarge|c6i.2xlarge (spot)";
        assertThat(item(lines, "EC2 2 ×")).isEqualTo(nodes);
        assertThat(line(lines, nodes, "unitPrice")).isEqualTo(spotPrice);
        assertThat(line(lines, nodes, "cost")).isCloseTo(2 * hours * spotPrice, within(1e-5));
        assertThat(line(lines, nodes, "onDemandUnitPrice")).isEqualTo(onDemandPrice);
        assertThat(line(lines, nodes, "onDemandCost")).isCloseTo(2 * hours * onDemandPrice, within(1e-5));

        double sum = 0;
        for (JsonNode l : lines) {
            sum += l.path("cost").asDouble();
        }
        assertThat(cost.path("total").asDouble()).isCloseTo(sum, within(1e-5));
        assertThat(cost.path("onDemandTotal").asDouble())
                .isCloseTo(sum + 2 * hours * (onDemandPrice - spotPrice), within(1e-5));
        assertThat(cost.path("unpriced")).isEmpty();
        assertThat(cost.path("worstCase").path("onDemandTotal").asDouble())
                .isGreaterThan(cost.path("worstCase").path("total").asDouble());
        assertThat(cost.path("assumptions").toString())
                .contains("SPOT at typical spot prices of "
                        + prices.path("spotDate").asText())
                .contains("spot prices change by the hour and by Availability Zone");

        CliTest.Result text =
                CliTest.cli(on(DAY), "plan", dir.resolve("spec.json").toString());
        assertThat(text.out())
                .contains("typical spot prices of " + prices.path("spotDate").asText())
                .contains("(the same on demand)")
                .contains("total with the nodes on demand");
    }

    @Test
    void aSpotTypeWithoutASpotPriceIsPricedAtOnDemandTheMostSpotCosts() {
        var table = io.trainplane.aws.RunPrices.forRegion(io.trainplane.aws.RunPrices.DEFAULT_REGION);
        var noSpot = table.withInstances(new io.trainplane.aws.InstancePrices(
                table.region(), table.date(), table.instances().onDemandPerHour(), java.util.Map.of()));
        var nodes = new io.trainplane.spec.NodeGroupSpec(
                null, List.of("c5.2xlarge", "c6i.2xlarge"), 2, 0, io.trainplane.spec.CapacityType.SPOT, null, false);

        CostEstimate.NodePrice price = CostEstimate.NodePrice.of(nodes, noSpot);

        assertThat(price.perHour()).isEqualTo(table.instancePerHour("c5.2xlarge"));
        assertThat(price.noSpotPrice()).containsExactly("c5.2xlarge", "c6i.2xlarge");
        assertThat(price.assumption(noSpot)).contains("priced at on-demand, the most Spot costs");
    }

    @Test
    void aTotalWithoutSomePriceSaysItIsALowerBoundInTextAndJson() {
        var table = io.trainplane.aws.RunPrices.forRegion(io.trainplane.aws.RunPrices.DEFAULT_REGION);
        var withoutG5 = new java.util.HashMap<>(table.instances().onDemandPerHour());
        withoutG5.remove("g5.2xlarge");
        var partial = table.withInstances(new io.trainplane.aws.InstancePrices(
                table.region(), table.date(), withoutG5, table.instances().spotPerHour()));
        var spec = io.trainplane.spec.RunSpecs.parse(SPEC);
        CostEstimate cost = CostEstimate.of(spec, partial, java.time.LocalDate.parse(DAY));

        JsonNode json = cost.toJson();
        assertThat(json.path("totalComplete").asBoolean()).isFalse();
        assertThat(json.path("totalText").asText())
                .isEqualTo(String.format(
                        "at least $%.2f (price of EC2 2 × g5.2xlarge unknown)",
                        json.path("total").asDouble()));
        assertThat(json.at("/worstCase/totalComplete").asBoolean()).isFalse();
        java.io.StringWriter text = new java.io.StringWriter();
        cost.print(new java.io.PrintWriter(text, true));
        assertThat(text.toString()).contains("total", "at least $", "(price of EC2 2 × g5.2xlarge unknown)");

        JsonNode complete =
                CostEstimate.of(spec, table, java.time.LocalDate.parse(DAY)).toJson();
        assertThat(complete.path("totalComplete").asBoolean()).isTrue();
        assertThat(complete.path("totalText").asText()).endsWith("(estimate)");
    }

    @Test
    void planWithAStoreLearnsAWorkloadsSecondsPerEpochFromItsEarlierRuns() throws IOException {
        String custom = Files.readString(Path.of("examples/custom-image.json"));
        Path storeDir = dir.resolve("store");
        java.time.Instant t0 = Instant.parse(DAY + "T08:00:00Z");
        try (io.trainplane.local.LocalStore local = io.trainplane.local.LocalStore.open(storeDir)) {
            var store = new io.trainplane.runs.RunStore(
                    local.client(), io.trainplane.local.LocalStore.tableName(), Clock.fixed(t0, ZoneOffset.UTC));
            // Two SUCCEEDED runs of the example under other runIds, 3 epochs in 1,200 s and in 1,800 s: 500 s an epoch.
            for (var run :
                    java.util.Map.of("custom-a", 1_200L, "custom-b", 1_800L).entrySet()) {
                String named = custom.replace("\"runId\": \"custom-image\"", "\"runId\": \"" + run.getKey() + "\"");
                store.create(
                        run.getKey(),
                        Json.write(io.trainplane.spec.RunSpecs.normalize(named, java.time.LocalDate.parse(DAY))),
                        null);
                store.addStep(run.getKey(), new io.trainplane.runs.StepEntry("StartTraining", t0, t0, "ok", null));
                store.addStep(
                        run.getKey(),
                        new io.trainplane.runs.StepEntry(
                                "CheckTraining", t0, t0.plusSeconds(run.getValue()), "ok", null));
                store.update(run.getKey(), r -> r.withStatus(io.trainplane.runs.RunStatus.SUCCEEDED));
            }
        }
        Path f = dir.resolve("custom.json");
        Files.writeString(f, custom);
        CliTest.Result learned =
                CliTest.cli(on(DAY), "plan", "--output", "json", "--store", storeDir.toString(), f.toString());
        assertThat(learned.exit()).as(learned.err()).isZero();
        JsonNode cost = Json.read(learned.out()).path("cost");
        assertThat(cost.at("/secondsPerEpoch/source").asText()).isEqualTo("learned");
        assertThat(cost.at("/secondsPerEpoch/seconds").asDouble()).isCloseTo(500, within(1e-6));
        assertThat(cost.path("expectedHours").asDouble()).isCloseTo(3 * 500 / 3600.0 + 0.5, within(1e-4));

        // Without a store: the default, marked as a guess in the text.
        CliTest.Result guessed = CliTest.cli(on(DAY), "plan", f.toString());
        assertThat(guessed.exit()).as(guessed.err()).isZero();
        assertThat(guessed.out()).contains("3 epochs × 300 s per epoch", "a GUESS", "give training.secondsPerEpoch");
    }
}
