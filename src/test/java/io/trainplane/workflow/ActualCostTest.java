package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.trainplane.aws.RunPrices;
import io.trainplane.core.Json;
import io.trainplane.runs.RunCost;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.StepEntry;
import io.trainplane.spec.KubernetesVersions;
import io.trainplane.spec.RunSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A run's usage priced line by line: hours from the timeline, quantities from the spec, prices from the table. */
class ActualCostTest {
    /** Round prices, so that each line's arithmetic reads plainly. */
    static final RunPrices PRICES = RunPrices.parse(
            """
            {"region": "test-1", "date": "2026-01-01",
             "instances": {"c5.2xlarge": 1.0, "m5.large": 0.1},
             "spotInstances": {"c5.2xlarge": 0.4},
             "eksControlPlanePerHour": 0.1, "eksExtendedSupportControlPlanePerHour": 0.6,
             "efsStoragePerGbMonth": 0.3, "efsElasticReadPerGb": 0.03, "efsElasticWritePerGb": 0.06,
             "stepFunctionsPer1000Transitions": 0.025, "lambdaPerGbSecond": 0.00002,
             "ebsGp3PerGbMonth": 0.1, "logsIngestionPerGb": 0.5, "natGatewayPerHour": 0.05, "natGatewayPerGb": 0.05,
             "dataTransferInPerGb": 0.0, "s3StandardPerGbMonth": 0.02, "s3PutPer1000": 0.005, "s3GetPer1000": 0.0004}
            """);

    static final KubernetesVersions.Version V135 =
            KubernetesVersions.find("1.35").orElseThrow();

    static RunRecord quickstart(Instant start, String edit) throws Exception {
        // At 1.35, which the tests' days are chosen around (the example names no version).
        String json = Files.readString(Path.of("examples/quickstart.json"))
                .replace("\"nodes\": 2", edit)
                .replace(
                        "\"mode\": \"create\",",
                        "\"mode\": \"create\", \"kubernetesVersion\": \"" + V135.version() + "\",");
        String normalized = Json.write(RunSpecs.normalize(json, KubernetesVersions.day(start)));
        return RunRecord.newRun("quickstart", normalized, null, start)
                .withResource(RunResources.CLEANUP_FINISHED, start.plus(Duration.ofHours(2)));
    }

    /** CreateCluster at +1 min, CreateNodegroup at +20 min, CreateVolume at +25 min, each 2 s; one failed retry. */
    static List<StepEntry> steps(Instant start) {
        return List.of(
                step("StartRun", start, 0, "ok"),
                step("CreateCluster", start, 1, "ok"),
                step("CreateNodegroup", start, 19, "TransientException"),
                step("CreateNodegroup", start, 20, "ok"),
                step("CreateVolume", start, 25, "ok"));
    }

    static StepEntry step(String state, Instant start, int minute, String outcome) {
        Instant at = start.plus(Duration.ofMinutes(minute));
        return new StepEntry(state, at, at.plusSeconds(2), outcome, null);
    }

    static Map<String, RunCost.Line> byItem(RunCost cost) {
        return cost.lines().stream().collect(Collectors.toMap(RunCost.Line::item, l -> l));
    }

    @Test
    void workersReleasedAfterTheEvaluationArePricedToTheReleaseAndTheDrainLimit() throws Exception {
        Instant start = V135.eksRelease().plusDays(10).atStartOfDay().toInstant(ZoneOffset.UTC);
        List<StepEntry> steps = new java.util.ArrayList<>(steps(start));
        steps.add(step("ReleaseWorkers", start, 60, "ok"));
        Map<String, RunCost.Line> lines =
                byItem(ActualCost.of(quickstart(start, "\"nodes\": 2"), steps, start.plusSeconds(99_999), PRICES));
        // Workers from +20 min to ReleaseWorkers (+60 min) and the 5 minutes a node may drain: 2 × 45 min.
        assertThat(lines.get("EC2 2 × c5.2xlarge").quantity()).isCloseTo(2 * 45 / 60.0, within(1e-6));
        // The system node serves the outputs and cleanup: still to the end of cleanup (+120 min).
        assertThat(lines.get("EC2 1 × m5.large (system)").quantity()).isCloseTo(100 / 60.0, within(1e-6));
    }

    @Test
    void eachLineIsItsUsageTimesItsPriceAndTheTotalTheirSum() throws Exception {
        Instant start = V135.eksRelease().plusDays(10).atStartOfDay().toInstant(ZoneOffset.UTC);
        RunCost cost =
                ActualCost.of(quickstart(start, "\"nodes\": 2"), steps(start), start.plusSeconds(99_999), PRICES);
        Map<String, RunCost.Line> lines = byItem(cost);
        // Nodes from the successful CreateNodegroup (+20 min) to the end of cleanup (+120 min): 2 × 100 min.
        assertThat(lines.get("EC2 2 × c5.2xlarge").quantity()).isCloseTo(2 * 100 / 60.0, within(1e-6));
        assertThat(lines.get("EC2 2 × c5.2xlarge").cost()).isCloseTo(2 * 100 / 60.0 * 1.0, within(1e-6));
        assertThat(lines.get("EC2 1 × m5.large (system)").cost()).isCloseTo(100 / 60.0 * 0.1, within(1e-6));
        // Control plane from CreateCluster (+1 min), in standard support on the run's day.
        assertThat(lines.get("EKS control plane").quantity()).isCloseTo(119 / 60.0, within(1e-6));
        assertThat(lines.get("EKS control plane").cost()).isCloseTo(119 / 60.0 * 0.1, within(1e-6));
        // EFS: 2 GB for 95 minutes, in GB-months; the plan's reads (11 × 0.2 GB) and writes (2 GB).
        assertThat(lines.get("EFS storage").cost()).isCloseTo(2.0 * 95 / 60.0 / 730.0 * 0.3, within(1e-6));
        assertThat(lines.get("EFS elastic throughput, reads").quantity()).isCloseTo(0.2 * 11, within(1e-6));
        assertThat(lines.get("EFS elastic throughput, writes").cost()).isCloseTo(2.0 * 0.06, within(1e-6));
        // Root volumes while the nodes ran (100 min): 2 workers × 30 GiB and the system node's 20 GiB, in GB-months.
        assertThat(lines.get("EBS gp3 root volumes").quantity())
                .isCloseTo((2 * 30 + 20) * 100 / 60.0 / 730.0, within(1e-6));
        assertThat(lines.get("EBS gp3 root volumes").cost())
                .isCloseTo((2 * 30 + 20) * 100 / 60.0 / 730.0 * 0.1, within(1e-6));
        // Control-plane logs for the cluster's 119 minutes; the 3 nodes' images through the NAT gateway.
        assertThat(lines.get("CloudWatch Logs, control plane").cost()).isCloseTo(0.05 * 119 / 60.0 * 0.5, within(1e-6));
        assertThat(lines.get("NAT gateway processing, pulls").cost()).isCloseTo(3 * (3.4 + 0.5) * 0.05, within(1e-6));
        // The run never got to its training: it wrote no outputs.
        assertThat(lines).doesNotContainKeys("S3 storage, outputs (first month)", "S3 PUT and LIST requests");
        // The workflow: 5 recorded steps and 240 polls (one every 30 s of a 2-hour run), each invocation billed 2 s
        // (the steps span their states, not the functions' run time).
        assertThat(lines.get("Step Functions transitions").quantity())
                .isCloseTo((2 * 5 + 3 * 240) / 1000.0, within(1e-6));
        assertThat(lines.get("Lambda").quantity()).isCloseTo(10 + 240 * 2.0, within(1e-6));
        assertThat(cost.hours()).isCloseTo(2.0, within(1e-6));
        assertThat(cost.total())
                .isCloseTo(cost.lines().stream().mapToDouble(RunCost.Line::cost).sum(), within(1e-5))
                .isPositive();
        assertThat(cost.priceTable()).isEqualTo("test-1 prices of 2026-01-01");
        assertThat(cost.unpriced()).isEmpty();
    }

    @Test
    void aVersionInExtendedSupportPaysTheExtendedControlPlanePrice() throws Exception {
        Instant start = V135.endOfStandardSupport().plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC);
        RunCost cost = ActualCost.of(quickstart(start, "\"nodes\": 2"), steps(start), start, PRICES);
        RunCost.Line line = byItem(cost).get("EKS control plane, extended support");
        assertThat(line.unitPrice()).isEqualTo(0.6);
        assertThat(line.cost()).isCloseTo(119 / 60.0 * 0.6, within(1e-6));
        assertThat(byItem(cost)).doesNotContainKey("EKS control plane");
    }

    @Test
    void spotNodesCostTheirSpotPrice() throws Exception {
        Instant start = V135.eksRelease().plusDays(10).atStartOfDay().toInstant(ZoneOffset.UTC);
        RunCost cost = ActualCost.of(
                quickstart(start, "\"nodes\": 2, \"capacityType\": \"SPOT\""), steps(start), start, PRICES);
        assertThat(byItem(cost).get("EC2 2 × c5.2xlarge (spot)").cost()).isCloseTo(2 * 100 / 60.0 * 0.4, within(1e-6));
    }

    @Test
    void aCapacityBlocksNodesAreUnpricedNotOnDemand() throws Exception {
        Instant start = V135.eksRelease().plusDays(10).atStartOfDay().toInstant(ZoneOffset.UTC);
        RunRecord quickstart = quickstart(start, "\"nodes\": 2");
        String block = quickstart
                .specJson()
                .replace("\"c5.2xlarge\"", "\"p4d.24xlarge\"")
                .replace("\"gpusPerNode\":0", "\"gpusPerNode\":8") // the type's, which the spec asserts
                .replace(
                        "\"capacityType\":\"ON_DEMAND\"",
                        "\"capacityType\":\"CAPACITY_BLOCK\"," + "\"capacityReservationId\":\"cr-0123456789abcdef0\"");
        assertThat(block).contains("CAPACITY_BLOCK", "p4d.24xlarge");
        String normalized = Json.write(RunSpecs.normalize(block, KubernetesVersions.day(start)));
        RunCost cost = ActualCost.of(
                RunRecord.newRun("quickstart", normalized, null, start)
                        .withResource(RunResources.CLEANUP_FINISHED, start.plus(Duration.ofHours(2))),
                steps(start),
                start.plusSeconds(99_999),
                PRICES);
        RunCost.Line workers = byItem(cost).get("EC2 2 × p4d.24xlarge (Capacity Block)");
        // Still the node-hours (2 × 100 min), but no price: the block was paid up front at its own rate.
        assertThat(workers.quantity()).isCloseTo(2 * 100 / 60.0, within(1e-6));
        assertThat(workers.unitPrice()).isNull();
        assertThat(workers.cost()).isNull();
        assertThat(cost.basis()).anyMatch(b -> b.startsWith("Capacity Block cr-0123456789abcdef0: paid up front"));
        // The total is the priced lines' only.
        assertThat(cost.total())
                .isCloseTo(
                        cost.lines().stream()
                                .filter(l -> l.cost() != null)
                                .mapToDouble(RunCost.Line::cost)
                                .sum(),
                        within(1e-5));
    }

    @Test
    void nothingCreatedCostsOnlyTheWorkflowAndAnUnknownEndIsTheRunsEnd() throws Exception {
        Instant start = V135.eksRelease().plusDays(10).atStartOfDay().toInstant(ZoneOffset.UTC);
        RunRecord refusedEarly = quickstart(start, "\"nodes\": 2").withoutResource(RunResources.CLEANUP_FINISHED);
        RunCost cost = ActualCost.of(
                refusedEarly, List.of(step("StartRun", start, 0, "ok")), start.plus(Duration.ofMinutes(3)), PRICES);
        assertThat(cost.lines()).extracting(RunCost.Line::item).containsExactly("Step Functions transitions", "Lambda");
        assertThat(cost.hours()).isCloseTo(0.05, within(1e-6));
        assertThat(cost.basis()).anyMatch(b -> b.contains("6 polls estimated at one every 30 s"));
        assertThat(cost.total()).isPositive().isLessThan(0.01);
    }
}
