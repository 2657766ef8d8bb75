package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.local.sim.SimulatedEventBus;
import io.trainplane.local.sim.SimulatedStepFunctions;
import io.trainplane.runs.RunStatus;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.InvalidSpecException;
import io.trainplane.workflow.StartScheduledRunStep.Overlap;
import io.trainplane.workflow.StepWiring;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Scheduled retraining: StartScheduledRun against the twin's DynamoDB and the simulated Step Functions,
 * whose TrainingPipeline here runs StartRun (the run record appears, PROVISIONING) and stays RUNNING.
 */
class ScheduledRunTest {
    static final String DAY1 = "2026-03-01T03:00:00Z";
    static final String DAY2 = "2026-03-02T03:00:00Z";
    static String quickstart;

    LocalCloud cloud;
    Handlers handlers;
    RunStore store;

    @BeforeAll
    static void read() throws IOException {
        quickstart = Files.readString(Path.of("examples/quickstart.json"));
    }

    @BeforeEach
    void deploy() {
        cloud = new LocalCloud(TestTime.START);
        handlers = new Handlers(cloud);
        store = StepWiring.runStore(cloud.clients());
        cloud.stepFunctions().register(LocalCloud.PIPELINE_ARN, (name, input) -> {
            handlers.start(Json.write(input), name);
            return "RUNNING";
        });
    }

    @AfterEach
    void close() {
        cloud.close();
    }

    static ObjectNode firing(String series, JsonNode spec, String scheduledTime) {
        ObjectNode input = Json.object().put("series", series).put("scheduledTime", scheduledTime);
        input.set("spec", spec);
        return input;
    }

    JsonNode fire(String scheduledTime, Overlap overlap) {
        return StepWiring.startScheduledRun(cloud.clients(), overlap)
                .run(firing("retraining", Json.read(quickstart), scheduledTime));
    }

    List<SimulatedStepFunctions.ExecutionRecord> pipelines() {
        return cloud.stepFunctions().executions().stream()
                .filter(e -> e.stateMachineArn().equals(LocalCloud.PIPELINE_ARN))
                .toList();
    }

    List<SimulatedEventBus.Event> skipped() {
        return cloud.bus().events().stream()
                .filter(e -> e.detailType().equals("Scheduled Run Skipped"))
                .toList();
    }

    @Test
    void twoFiringsStartTwoRunsWithDistinctRunIds() {
        JsonNode first = fire(DAY1, Overlap.SKIP);
        assertThat(first.path("action").asText()).isEqualTo("started");
        assertThat(first.path("runId").asText()).isEqualTo("retraining-20260301-0300");
        store.update("retraining-20260301-0300", r -> r.withStatus(RunStatus.SUCCEEDED));

        JsonNode second = fire(DAY2, Overlap.SKIP);
        assertThat(second.path("action").asText()).isEqualTo("started");
        assertThat(second.path("runId").asText()).isEqualTo("retraining-20260302-0300");

        assertThat(pipelines())
                .extracting(SimulatedStepFunctions.ExecutionRecord::name)
                .containsExactly("retraining-20260301-0300", "retraining-20260302-0300");
        // The execution's input is the spec with the firing's runId, which StartRun accepts as the execution name.
        assertThat(pipelines())
                .allSatisfy(e -> assertThat(e.input().path("runId").asText()).isEqualTo(e.name()));
        assertThat(store.find("retraining-20260302-0300")).get().satisfies(r -> assertThat(r.status())
                .isEqualTo(RunStatus.PROVISIONING));
        assertThat(skipped()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(
            value = RunStatus.class,
            names = {"PROVISIONING", "TRAINING"})
    void aFiringWhileARunOfTheSeriesIsGoingIsSkippedWithAnEvent(RunStatus status) {
        fire(DAY1, Overlap.SKIP);
        store.update("retraining-20260301-0300", r -> r.withStatus(status));

        JsonNode second = fire(DAY2, Overlap.SKIP);

        assertThat(second.path("action").asText()).isEqualTo("skipped");
        assertThat(pipelines()).hasSize(1);
        assertThat(store.find("retraining-20260302-0300")).isEmpty();
        assertThat(skipped()).singleElement().satisfies(e -> {
            assertThat(e.detail().path("runId").asText()).isEqualTo("retraining-20260302-0300");
            assertThat(e.detail().path("series").asText()).isEqualTo("retraining");
            assertThat(e.detail().path("scheduledTime").asText()).isEqualTo(DAY2);
            assertThat(e.detail().path("activeRuns").get(0).path("runId").asText())
                    .isEqualTo("retraining-20260301-0300");
            assertThat(e.detail().path("activeRuns").get(0).path("status").asText())
                    .isEqualTo(status.name());
            assertThat(EventSchemasTest.validate(e.envelope())).isEmpty();
        });
    }

    @ParameterizedTest
    @EnumSource(
            value = RunStatus.class,
            names = {"PROVISIONING", "TRAINING"})
    void withOverlapStartAFiringStartsBesideARunThatIsGoing(RunStatus status) {
        fire(DAY1, Overlap.START);
        store.update("retraining-20260301-0300", r -> r.withStatus(status));

        JsonNode second = fire(DAY2, Overlap.START);

        assertThat(second.path("action").asText()).isEqualTo("started");
        assertThat(pipelines())
                .extracting(SimulatedStepFunctions.ExecutionRecord::name)
                .containsExactly("retraining-20260301-0300", "retraining-20260302-0300");
        assertThat(skipped()).isEmpty();
    }

    @Test
    void runsOfAnotherSeriesDoNotCount() {
        StepWiring.startScheduledRun(cloud.clients(), Overlap.SKIP)
                .run(firing("retraining-big", Json.read(quickstart), DAY1));
        assertThat(fire(DAY1, Overlap.SKIP).path("action").asText()).isEqualTo("started");
        assertThat(pipelines())
                .extracting(SimulatedStepFunctions.ExecutionRecord::name)
                .containsExactly("retraining-big-20260301-0300", "retraining-20260301-0300");
    }

    @Test
    void aRepeatedFiringStartsNothingNew() {
        assertThat(fire(DAY1, Overlap.SKIP).path("action").asText()).isEqualTo("started");
        // Delivered again while the run goes, under either policy: it is this firing's own run.
        assertThat(fire(DAY1, Overlap.SKIP).path("action").asText()).isEqualTo("already-started");
        assertThat(fire(DAY1, Overlap.START).path("action").asText()).isEqualTo("already-started");
        // And again after the run ended: Step Functions refuses a second execution of the name.
        store.update("retraining-20260301-0300", r -> r.withStatus(RunStatus.SUCCEEDED));
        assertThat(fire(DAY1, Overlap.SKIP).path("action").asText()).isEqualTo("already-started");

        assertThat(pipelines()).hasSize(1);
        assertThat(skipped()).isEmpty();
    }

    @Test
    void anInvalidSpecIsRefusedNamingTheFieldAndStartsNothing() {
        ObjectNode spec = (ObjectNode) Json.read(quickstart);
        ((ObjectNode) spec.get("training")).put("workers", 0);
        JsonNode input = firing("retraining", spec, DAY1);

        assertThatThrownBy(() -> handlers.invoke("StartScheduledRun", input))
                .isInstanceOf(InvalidSpecException.class)
                .hasMessageContaining("/training/workers");
        assertThatThrownBy(() -> handlers.invoke("StartScheduledRun", firing("retraining", Json.read("{}"), DAY1)))
                .isInstanceOf(InvalidSpecException.class)
                .hasMessageContaining("/cluster");
        assertThatThrownBy(
                        () -> handlers.invoke("StartScheduledRun", firing("Retraining!", Json.read(quickstart), DAY1)))
                .isInstanceOf(InvalidSpecException.class)
                .hasMessageContaining("/series");
        assertThatThrownBy(
                        () -> handlers.invoke("StartScheduledRun", firing("retraining", Json.read(quickstart), "soon")))
                .isInstanceOf(InvalidSpecException.class)
                .hasMessageContaining("/scheduledTime");
        assertThat(cloud.stepFunctions().executions()).isEmpty();
    }

    @Test
    void aSpecForAWarmClusterIsPassedThrough() {
        JsonNode spec =
                Json.read("{\"cluster\": {\"mode\": \"existing\", \"name\": \"" + LocalCloud.DEMO_CLUSTER + "\"}}");
        JsonNode result = StepWiring.startScheduledRun(cloud.clients(), Overlap.SKIP)
                .run(firing("warm", spec, "2026-03-01T03:30:00.000Z"));
        assertThat(result.path("runId").asText()).isEqualTo("warm-20260301-0330");
        assertThat(pipelines()).singleElement().satisfies(e -> {
            assertThat(e.input().path("cluster").path("mode").asText()).isEqualTo("existing");
            assertThat(e.input().path("cluster").path("name").asText()).isEqualTo(LocalCloud.DEMO_CLUSTER);
        });
    }

    @Test
    void theSpecMayComeAsTextAndTheOverlapPolicyIsSkipByDefault() {
        JsonNode result = StepWiring.startScheduledRun(cloud.clients(), Overlap.parse(""))
                .run(firing(
                        "retraining",
                        Json.mapper().getNodeFactory().textNode(quickstart),
                        "2026-03-01T04:00:00+01:00"));
        assertThat(result.path("runId").asText()).isEqualTo("retraining-20260301-0300");
        assertThat(Overlap.parse("START")).isEqualTo(Overlap.START);
        assertThatThrownBy(() -> Overlap.parse("queue")).hasMessageContaining("'skip' or 'start'");
    }
}
