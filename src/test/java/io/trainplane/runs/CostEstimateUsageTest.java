package io.trainplane.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.RunPrices;
import io.trainplane.aws.UsagePrices;
import io.trainplane.core.Json;
import io.trainplane.local.LocalDynamoDb;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * What the plan counts besides nodes, control plane, volume and workflow (root volumes, logs, NAT,
 * data transfer, S3), a Capacity Block, and where the training's seconds per epoch come from:
 * figures worked out by hand from us-east-1.json.
 */
class CostEstimateUsageTest {
    static final LocalDate DAY = LocalDate.parse("2026-11-23");
    static final RunPrices PRICES = RunPrices.forRegion(RunPrices.DEFAULT_REGION);

    static String example(String name) throws IOException {
        return Files.readString(Path.of("examples", name));
    }

    static RunSpec spec(String json) {
        return RunSpecs.parse(json, DAY);
    }

    static CostEstimate.Line line(CostEstimate cost, String prefix) {
        return cost.expected().stream()
                .filter(l -> l.item().startsWith(prefix))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line " + prefix + " in " + cost.expected()));
    }

    @Test
    void theQuickstartPaysItsRootVolumesLogsNatAndS3() throws IOException {
        CostEstimate cost = CostEstimate.of(spec(example("quickstart.json")), PRICES, DAY);
        // 10 epochs × 240 s (c5) + 0.5 h.
        double hours = 10 * 240 / 3600.0 + 0.5;
        assertThat(cost.expectedHours()).isCloseTo(hours, within(1e-9));
        // 2 workers × 30 GiB (the PyTorch image's default disk) and the system node's 20 GiB, at $0.08 a GB-month.
        assertThat(line(cost, "EBS gp3 root volumes").quantity()).isCloseTo(80 * hours / 730, within(1e-9));
        assertThat(line(cost, "EBS gp3 root volumes").cost()).isCloseTo(80 * hours / 730 * 0.08, within(1e-9));
        // 0.05 GB of control-plane logs an hour at $0.50.
        assertThat(line(cost, "CloudWatch Logs, control plane").cost()).isCloseTo(0.05 * hours * 0.50, within(1e-9));
        // 3 nodes × (3.4 GB PyTorch image + 0.5 GB of Trainplane's images); synthetic data: nothing else.
        assertThat(line(cost, "NAT gateway processing").quantity()).isCloseTo(11.7, within(1e-9));
        assertThat(line(cost, "NAT gateway processing").cost()).isCloseTo(0.5265, within(1e-9));
        assertThat(line(cost, "Data transfer in").cost()).isZero();
        // S3: 0.5 GB a month; 10 + 2 × 10 epochs + 40 syncs (40 minutes of training) PUTs and LISTs; 10 GETs.
        assertThat(line(cost, "S3 storage").cost()).isCloseTo(0.0115, within(1e-9));
        assertThat(line(cost, "S3 PUT and LIST").quantity()).isCloseTo(0.070, within(1e-9));
        assertThat(line(cost, "S3 GET").quantity()).isCloseTo(0.010, within(1e-9));
        // The whole run: $1.22 before these lines, $1.80 with them.
        assertThat(cost.expectedTotal()).isCloseTo(1.7957, within(1e-4));
        assertThat(cost.worstCaseTotal()).isCloseTo(4.3875, within(1e-4));
        JsonNode json = cost.toJson();
        assertThat(json.path("totalComplete").asBoolean()).isTrue();
        assertThat(json.at("/secondsPerEpoch/source").asText()).isEqualTo("table");
        assertThat(json.path("assumptions").toString()).contains("container logs", "NAT gateway", "gp3, 30 GiB");
    }

    @Test
    void aCapacityBlockIsUnpricedUpFrontAndTheTotalIncomplete() {
        String json =
                """
                {"runId": "block",
                 "cluster": {"mode": "create", "kubernetesVersion": "1.35",
                             "nodeGroup": {"instanceType": "p5.48xlarge", "nodes": 2, "gpusPerNode": 8,
                                           "capacityType": "CAPACITY_BLOCK",
                                           "capacityReservationId": "cr-0123456789abcdef0", "efa": true}},
                 "volume": {"type": "efs"},
                 "training": {"workers": 2, "procsPerWorker": 8, "gpusPerWorker": 8, "epochs": 10},
                 "maxRunHours": 4}
                """;
        CostEstimate cost = CostEstimate.of(spec(json), PRICES, DAY);
        CostEstimate.Line workers = line(cost, "EC2 2 × p5.48xlarge");
        assertThat(workers.item()).isEqualTo("EC2 2 × p5.48xlarge (Capacity Block)");
        // Not the On-Demand $98.32 an hour: the block's own rate, which the offline table does not have.
        assertThat(workers.unitPrice()).isNull();
        assertThat(cost.unpriced()).containsExactly(workers.item());
        assertThat(cost.assumptions())
                .anyMatch(a -> a.startsWith("Capacity Block cr-0123456789abcdef0: paid up front")
                        && a.contains("whole duration")
                        && a.contains("ec2:DescribeCapacityBlockOfferings"));
        JsonNode out = cost.toJson();
        assertThat(out.path("totalComplete").asBoolean()).isFalse();
        assertThat(out.at("/worstCase/totalComplete").asBoolean()).isFalse();
        assertThat(out.path("totalText").asText()).startsWith("at least $");
        // The stack's ceilings judge the block's nodes at On-Demand for the whole worst case (2 nodes × 4 h), never
        // at nothing: an unpriced line must not let a run past a ceiling.
        assertThat(cost.ceilingWorstCase())
                .isCloseTo(cost.worstCaseTotal() + 2 * 4 * PRICES.instancePerHour("p5.48xlarge"), within(1e-6));
        // Any other run's ceiling figure is its worst case.
        CostEstimate onDemand = CostEstimate.of(
                spec(json.replace("\"capacityType\": \"CAPACITY_BLOCK\",", "")
                        .replace("\"capacityReservationId\": \"cr-0123456789abcdef0\", ", "")),
                PRICES,
                DAY);
        assertThat(onDemand.ceilingWorstCase()).isEqualTo(onDemand.worstCaseTotal());
        assertThat(onDemand.ceilingWorstCase()).isCloseTo(cost.ceilingWorstCase(), within(1e-6));
    }

    @Test
    void aLineWithoutAPriceMakesTheTotalIncomplete() throws IOException {
        UsagePrices full = PRICES.usage();
        RunPrices noNat = PRICES.withUsage(new UsagePrices(
                full.ebsGp3PerGbMonth(),
                full.logsIngestionPerGb(),
                full.natGatewayPerHour(),
                null,
                full.dataTransferInPerGb(),
                full.s3()));
        RunSpec quickstart = spec(example("quickstart.json"));
        CostEstimate complete = CostEstimate.of(quickstart, PRICES, DAY);
        CostEstimate cost = CostEstimate.of(quickstart, noNat, DAY);
        assertThat(cost.unpriced()).containsExactly("NAT gateway processing, pulls");
        assertThat(cost.toJson().path("totalComplete").asBoolean()).isFalse();
        assertThat(CostEstimate.totalText(cost.expected()))
                .startsWith("at least $")
                .contains("price of NAT gateway processing, pulls unknown");
        // The rest is the same: only the NAT line is missing from the total.
        assertThat(cost.expectedTotal()).isCloseTo(complete.expectedTotal() - 0.5265, within(1e-9));
        StringWriter text = new StringWriter();
        cost.print(new PrintWriter(text, true));
        assertThat(text.toString()).contains("no price in the table for: NAT gateway processing, pulls");
    }

    @Test
    void statedSecondsPerEpochAreTheTrainingsEvenForTheBuiltInWorkload() throws IOException {
        String custom = example("custom-image.json")
                .replace("\"timeoutMinutes\": 60", "\"timeoutMinutes\": 60, \"secondsPerEpoch\": 600");
        CostEstimate cost = CostEstimate.of(spec(custom), PRICES, DAY);
        // 3 epochs (the workload's hyperparameter) × 600 s + 0.5 h.
        assertThat(cost.expectedHours()).isCloseTo(3 * 600 / 3600.0 + 0.5, within(1e-9));
        assertThat(cost.epochTime().source()).isEqualTo(EpochTime.Source.STATED);
        assertThat(cost.assumptions())
                .anyMatch(a -> a.contains("3 epochs × 600 s per epoch")
                        && a.contains("seconds per epoch: training.secondsPerEpoch"));
        assertThat(cost.toJson().at("/secondsPerEpoch/guess").asBoolean()).isFalse();

        String quickstart =
                example("quickstart.json").replace("\"epochs\": 10,", "\"epochs\": 10, \"secondsPerEpoch\": 36,");
        CostEstimate builtin = CostEstimate.of(spec(quickstart), PRICES, DAY);
        assertThat(builtin.expectedHours()).isCloseTo(10 * 36 / 3600.0 + 0.5, within(1e-9));
    }

    @Test
    void aWorkloadOfYourOwnWithNoFigureIsAGuessAndSaysSo() throws IOException {
        CostEstimate cost = CostEstimate.of(spec(example("custom-image.json")), PRICES, DAY);
        assertThat(cost.epochTime().seconds()).isEqualTo(CostEstimate.DEFAULT_SECONDS_PER_EPOCH);
        assertThat(cost.epochTime().guess()).isTrue();
        assertThat(cost.expectedHours()).isCloseTo(3 * 300 / 3600.0 + 0.5, within(1e-9));
        assertThat(cost.assumptions())
                .anyMatch(a -> a.startsWith("training: 3 epochs × 300 s") && a.contains("a GUESS"));
        JsonNode json = cost.toJson();
        assertThat(json.at("/secondsPerEpoch/source").asText()).isEqualTo("guess");
        assertThat(json.at("/secondsPerEpoch/guess").asBoolean()).isTrue();
    }

    @Test
    void aWorkloadOfYourOwnLearnsFromTheSucceededRunsOfTheSameSpec() throws IOException {
        String custom = example("custom-image.json");
        try (LocalDynamoDb dynamo = LocalDynamoDb.start()) {
            RunsTable.create(dynamo.client(), "Runs");
            Instant t0 = Instant.parse("2026-11-20T08:00:00Z");
            RunStore store = new RunStore(dynamo.client(), "Runs", Clock.fixed(t0, ZoneOffset.UTC));
            // Two earlier runs of the same spec under other runIds: 3 epochs in 1,500 s and in 2,100 s.
            past(store, custom, "custom-image-1", t0, 1_500, RunStatus.SUCCEEDED);
            past(store, custom, "custom-image-2", t0, 2_100, RunStatus.SUCCEEDED);
            // Neither a failed run of it nor a succeeded run of another spec counts.
            past(store, custom, "custom-image-3", t0, 9_000, RunStatus.FAILED);
            past(store, custom.replace("\"lr\": 0.001", "\"lr\": 0.01"), "other", t0, 30, RunStatus.SUCCEEDED);

            CostEstimate cost = CostEstimate.of(spec(custom), PRICES, DAY, PastEpochs.of(store));
            // (500 + 700) / 2 = 600 s an epoch.
            assertThat(cost.epochTime().seconds()).isCloseTo(600, within(1e-6));
            assertThat(cost.epochTime().source()).isEqualTo(EpochTime.Source.LEARNED);
            assertThat(cost.expectedHours()).isCloseTo(3 * 600 / 3600.0 + 0.5, within(1e-6));
            assertThat(cost.assumptions())
                    .anyMatch(a -> a.contains("the mean of 2 earlier SUCCEEDED runs of this spec"));
            assertThat(cost.toJson().at("/secondsPerEpoch/source").asText()).isEqualTo("learned");

            // The built-in workload keeps its own figure, whatever the store holds.
            CostEstimate builtin = CostEstimate.of(spec(example("quickstart.json")), PRICES, DAY, PastEpochs.of(store));
            assertThat(builtin.epochTime().source()).isEqualTo(EpochTime.Source.TABLE);
        }
    }

    /** A run of {@code json} as {@code runId}, whose training took {@code trainingSeconds}, ended {@code status}. */
    static void past(RunStore store, String json, String runId, Instant t0, long trainingSeconds, RunStatus status) {
        String named = json.replaceFirst("\"runId\": \"[^\"]*\"", "\"runId\": \"" + runId + "\"");
        store.create(runId, Json.write(RunSpecs.normalize(named, DAY)), null);
        Instant started = t0.plus(Duration.ofMinutes(20));
        store.addStep(runId, new StepEntry("StartTraining", started, started.plusSeconds(1), "ok", null));
        store.addStep(
                runId,
                new StepEntry(
                        "CheckTraining", started.plusSeconds(1), started.plusSeconds(trainingSeconds), "ok", null));
        store.update(runId, r -> r.withStatus(status));
    }
}
