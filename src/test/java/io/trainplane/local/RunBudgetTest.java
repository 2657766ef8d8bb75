package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.runs.RunOutputs;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStatus;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A run whose actual cost reaches its budgetUsd during training: CheckTraining suspends the
 * training, which checkpoints and stops; the evaluation is skipped, the outputs job copies the
 * newest checkpoint (and no model: the training never wrote one), cleanup runs, and the run ends
 * BUDGET_REACHED with the reason in its record, its execution failing BudgetReached. A run started
 * with training.resumeFrom the stopped one goes on from its checkpoint.
 */
class RunBudgetTest {
    /**
     * The quickstart's cost when its training starts is about $0.83 (the $0.53 of its nodes' image
     * pulls through the NAT gateway among it), and about $0.91 at its end.
     */
    static final double MID_TRAINING_BUDGET = 0.87;

    static ObjectNode quickstart(String runId) throws IOException {
        return ((ObjectNode) Json.read(Files.readString(Path.of("examples/quickstart.json")))).put("runId", runId);
    }

    static double pulledGB(ObjectNode spec) {
        return io.trainplane.runs.RunUsage.pulledGB(RunSpecs.fromNormalized(RunSpecs.normalize(Json.write(spec))));
    }

    static RunReport run(LocalCloud cloud, ObjectNode spec) {
        return new LocalRun(cloud, Faults.none(), e -> {})
                .execute(
                        RunSpecs.normalize(Json.write(spec)), spec.path("runId").asText());
    }

    @Test
    void aRunThatReachesItsBudgetStopsWithItsCheckpointKeptAndAnotherRunGoesOnFromIt() throws IOException {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunReport r = run(cloud, quickstart("budgeted").put("budgetUsd", MID_TRAINING_BUDGET));

            assertThat(r.status()).as(r.toString()).isEqualTo("BUDGET_REACHED");
            assertThat(r.executionStatus()).isEqualTo("FAILED");
            assertThat(r.error()).isEqualTo("BudgetReached");
            assertThat(r.cause()).contains("its budget of $0.87 (budgetUsd)", "checkpoint and stop");
            assertThat(r.events())
                    .contains("Run Started", "Run Stopped", "Run Cleaned Up")
                    .doesNotContain("Model Evaluated", "Training Job Completed", "Run Succeeded", "Run Failed");
            assertThat(r.resources().remaining()).isEmpty();
            assertThat(r.cost().total()).isGreaterThanOrEqualTo(MID_TRAINING_BUDGET);

            RunStore store = new RunStore(cloud.clients().dynamoDb(), LocalCloud.tableName(), cloud.clock());
            RunRecord record = store.get("budgeted");
            assertThat(record.status()).isEqualTo(RunStatus.BUDGET_REACHED);
            assertThat(record.error()).isNull();
            String why = record.resources().get(RunResources.BUDGET_REACHED).orElseThrow();
            assertThat(why).matches(".*, \\d+ of its 10 epochs done");
            // The looks come no later than the budget is due: passed by at most a short look's worth.
            Matcher reached = Pattern.compile("cost reached \\$([0-9.]+)").matcher(why);
            assertThat(reached.find()).as(why).isTrue();
            assertThat(Double.parseDouble(reached.group(1))).isBetween(MID_TRAINING_BUDGET, MID_TRAINING_BUDGET + 0.01);
            RunOutputs outputs = record.outputs();
            assertThat(outputs.modelUri()).isNull();
            Matcher checkpoint = Pattern.compile("checkpoint-epoch-(\\d+)\\.pt").matcher(outputs.checkpoint());
            assertThat(checkpoint.matches()).as(outputs.checkpoint()).isTrue();
            int epoch = Integer.parseInt(checkpoint.group(1));
            assertThat(epoch).isBetween(1, 9);
            assertThat(r.cause()).contains(outputs.s3Uri() + outputs.checkpoint());
            var stored = io.trainplane.local.iam.Callers.as(reader(), () -> cloud.s3()
                    .headObject(
                            LocalCloud.artifactsBucket(),
                            "runs/tp-budgeted/" + outputs.checkpoint(),
                            io.trainplane.local.sim.SimulatedS3.Transport.TLS));
            assertThat(stored.sha256Hex()).isEqualTo(outputs.checkpointSha256());
            assertThat(cloud.bus().events())
                    .filteredOn(e -> e.detailType().equals("Run Stopped"))
                    .singleElement()
                    .satisfies(e -> {
                        assertThat(EventSchemasTest.validate(e.envelope())).isEmpty();
                        assertThat(e.detail().path("reason").asText()).isEqualTo("BudgetReached");
                        assertThat(e.detail().at("/output/checkpoint").asText()).isEqualTo(outputs.checkpoint());
                        assertThat(e.detail().at("/actualCost/total").asDouble())
                                .isEqualTo(r.cost().total());
                    });

            RunReport more = run(
                    cloud,
                    quickstart("budgeted-more")
                            .set(
                                    "training",
                                    ((ObjectNode) quickstart("x").get("training")).put("resumeFrom", "budgeted")));
            assertThat(more.status()).as(more.toString()).isEqualTo("SUCCEEDED");
            assertThat(more.metrics().get("resumedFromEpoch")).isEqualTo((double) epoch);
        }
    }

    /** A PyTorchJob's and an MPIJob's training stop the same way: their runPolicy.suspend. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"pytorchjob", "mpijob"})
    void eachLauncherIsSuspendedAndKeepsItsCheckpoint(String launcher) throws IOException {
        ObjectNode spec = launcher.equals("mpijob")
                ? ((ObjectNode) Json.read(Files.readString(Path.of("examples/mpijob.json")))).put("runId", "budgeted")
                : quickstart("budgeted");
        ((ObjectNode) spec.get("training")).put("launcher", launcher);
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            // The MPIJob example's image (size unpublished, taken as 10 GB) makes its pulls through the NAT gateway
            // dearer than the quickstart's: its budget is higher by as much.
            double budget = MID_TRAINING_BUDGET
                    + (pulledGB(spec) - pulledGB(quickstart("x")))
                            * io.trainplane.aws.RunPrices.forRegion(io.trainplane.aws.RunPrices.DEFAULT_REGION)
                                    .usage()
                                    .natGatewayPerGb();
            RunReport r = run(cloud, spec.put("budgetUsd", budget));

            assertThat(r.status()).as(r.toString()).isEqualTo("BUDGET_REACHED");
            assertThat(r.resources().remaining()).isEmpty();
            RunOutputs outputs = new RunStore(cloud.clients().dynamoDb(), LocalCloud.tableName(), cloud.clock())
                    .get("budgeted")
                    .outputs();
            assertThat(outputs.checkpoint()).matches("checkpoint-epoch-[1-9]\\.pt");
            assertThat(outputs.modelUri()).isNull();
        }
    }

    @Test
    void aBudgetTheRunNeverReachesChangesNothing() throws IOException {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunReport r = run(cloud, quickstart("within-budget").put("budgetUsd", 5));

            assertThat(r.status()).as(r.toString()).isEqualTo("SUCCEEDED");
            assertThat(r.events()).contains("Model Evaluated", "Run Succeeded").doesNotContain("Run Stopped");
        }
    }

    private static io.trainplane.local.iam.Caller reader() {
        return new io.trainplane.local.iam.StackPrincipals(io.trainplane.local.iam.StackTemplate.local())
                .pod("RunOutputsRole", "reader", "reader", java.util.Map.of("kubernetes-namespace", "tp-budgeted"));
    }
}
