package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.TestTime;
import io.trainplane.local.asl.HistoryEvent;
import io.trainplane.local.sim.SimulatedEventBus;
import io.trainplane.local.sim.SimulatedStepFunctions;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunStatus;
import io.trainplane.spec.RunSpecs;
import io.trainplane.workflow.CleanupRecord;
import io.trainplane.workflow.StepWiring;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** A stopped execution runs no Catch: the safety net and the Cleanup state machine clean up after it. */
class SafetyNetTest {
    static String quickstart;
    static Set<String> taskStates;

    record Outcome(
            RunReport report,
            RunRecord record,
            List<SimulatedStepFunctions.ExecutionRecord> cleanups,
            List<SimulatedEventBus.Event> events) {}

    @BeforeAll
    static void happyRun() throws IOException {
        quickstart = Files.readString(Path.of("examples/quickstart.json"));
        // The healthy quickstart run, shared with the other tests that read one (ExampleRuns).
        List<HistoryEvent> history = ExampleRuns.quickstart().history();
        taskStates = new LinkedHashSet<>();
        history.stream().filter(e -> e.type().equals("TaskStateEntered")).forEach(e -> taskStates.add(e.stateName()));
    }

    static Outcome run(Faults faults, String abortAt) {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunReport report = new LocalRun(cloud, faults, e -> {})
                    .abortingAt(abortAt)
                    .execute(RunSpecs.normalize(quickstart), "quickstart");
            RunRecord record =
                    StepWiring.runStore(cloud.clients()).find("quickstart").orElse(null);
            return new Outcome(
                    report,
                    record,
                    cloud.stepFunctions().executions(),
                    cloud.bus().events());
        }
    }

    @TestFactory
    Stream<DynamicTest> aRunStoppedInAnyTaskIsCancelledAndCleanedUp() {
        return taskStates.stream()
                .map(state -> DynamicTest.dynamicTest("--abort-at " + state, () -> {
                    Outcome o = run(Faults.none(), state);
                    RunReport r = o.report();
                    assertThat(r.executionStatus()).isEqualTo("ABORTED");
                    assertThat(r.status()).isEqualTo("CANCELLED");
                    assertThat(r.resources().remaining()).isEmpty();
                    // The safety net ran: it started the Cleanup state machine once, which finished.
                    assertThat(o.cleanups()).singleElement().satisfies(c -> {
                        assertThat(c.name()).isEqualTo("cleanup-quickstart");
                        assertThat(c.stateMachineArn()).isEqualTo(LocalCloud.CLEANUP_ARN);
                        assertThat(c.status()).isEqualTo("SUCCEEDED");
                        assertThat(c.input().path("reason").asText()).isEqualTo("ABORTED");
                    });
                    assertThat(r.calls()).containsEntry("states:StartExecution", 1);
                    assertThat(r.events()).last().isEqualTo("Run Failed");
                    assertThat(o.events())
                            .filteredOn(e -> e.detailType().equals("Run Failed"))
                            .singleElement()
                            .satisfies(e -> assertThat(e.detail().path("status").asText())
                                    .isEqualTo("CANCELLED"));
                    if (o.record() != null) {
                        assertThat(o.record().status()).isEqualTo(RunStatus.CANCELLED);
                        assertThat(CleanupRecord.leftovers(o.record())).isEmpty();
                        assertThat(r.events()).containsOnlyOnce("Run Cleaned Up");
                    } else {
                        assertThat(state).isEqualTo("StartRun");
                    }
                }));
    }

    @Test
    void aFailedRunWhoseCleanupFinishedNeedsNoSafetyNet() {
        Outcome o = run(new Faults(Set.of("CheckTraining"), Set.of()), null);
        assertThat(o.report().status()).isEqualTo("FAILED");
        assertThat(o.cleanups()).isEmpty();
        assertThat(o.report().events()).containsSubsequence("Run Cleaned Up", "Run Failed");
    }

    @Test
    void aSucceededRunNeedsNoSafetyNet() {
        Outcome o = run(Faults.none(), null);
        assertThat(o.cleanups()).isEmpty();
        assertThat(o.report().events())
                .containsExactly(
                        "Run Started", "Training Job Completed", "Model Evaluated", "Run Cleaned Up", "Run Succeeded");
    }

    @Test
    void aDuplicateStatusChangeStartsNoSecondCleanup() {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunReport report = new LocalRun(cloud, Faults.none(), e -> {})
                    .abortingAt("CheckTraining")
                    .execute(RunSpecs.normalize(quickstart), "quickstart");
            assertThat(report.status()).isEqualTo("CANCELLED");
            // EventBridge delivers at least once: the same event again.
            SimulatedEventBus.Event change = cloud.bus().events().stream()
                    .filter(e -> e.source().equals("aws.states"))
                    .findFirst()
                    .orElseThrow();
            cloud.bus().emit(change.bus(), change.source(), change.detailType(), change.detail());
            assertThat(cloud.stepFunctions().executions()).hasSize(1);
            assertThat(cloud.bus().events())
                    .filteredOn(e -> e.detailType().equals("Run Failed"))
                    .hasSize(1);
        }
    }

    @Test
    void aTimedOutExecutionEndsTheRunFailedAndOtherStatusesAreIgnored() {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            var lambdas = new LocalLambdas(cloud, Faults.none());
            LocalSafetyNet.install(cloud, lambdas);
            new Handlers(cloud).start(quickstart, "quickstart");
            var change = io.trainplane.core.Json.object()
                    .put("stateMachineArn", LocalCloud.PIPELINE_ARN)
                    .put("name", "quickstart");

            cloud.bus()
                    .emit(
                            "default",
                            "aws.states",
                            LocalSafetyNet.STATUS_CHANGE,
                            change.deepCopy().put("status", "SUCCEEDED"));
            cloud.bus()
                    .emit(
                            "default",
                            "aws.states",
                            LocalSafetyNet.STATUS_CHANGE,
                            change.deepCopy()
                                    .put("status", "TIMED_OUT")
                                    .put("stateMachineArn", LocalCloud.CLEANUP_ARN));
            assertThat(cloud.stepFunctions().executions()).isEmpty();

            cloud.bus()
                    .emit(
                            "default",
                            "aws.states",
                            LocalSafetyNet.STATUS_CHANGE,
                            change.deepCopy().put("status", "TIMED_OUT"));
            assertThat(cloud.stepFunctions().executions()).singleElement().satisfies(c -> assertThat(
                            c.input().path("reason").asText())
                    .isEqualTo("TIMED_OUT"));
            RunRecord run = StepWiring.runStore(cloud.clients()).get("quickstart");
            assertThat(run.status()).isEqualTo(RunStatus.FAILED);
            assertThat(run.error().error()).isEqualTo("ExecutionTimedOut");
            assertThat(cloud.bus().events())
                    .filteredOn(e -> e.detailType().equals("Run Failed"))
                    .singleElement()
                    .satisfies(
                            e -> assertThat(e.detail().path("status").asText()).isEqualTo("FAILED"));
        }
    }

    @Test
    void aFailedRunWhoseCleanupFailedGetsASecondTryFromTheSafetyNet() {
        Outcome o = run(new Faults(Set.of(), Set.of(), Set.of("eks:DeleteCluster"), Set.of()), null);
        assertThat(o.report().executionStatus()).isEqualTo("FAILED");
        assertThat(o.report().status()).isEqualTo("FAILED");
        // The cluster cannot be deleted: the Cleanup execution tries, fails, and leaves the run FAILED as it was.
        assertThat(o.cleanups()).singleElement().satisfies(c -> {
            assertThat(c.input().path("reason").asText()).isEqualTo("FAILED");
            assertThat(c.status()).isEqualTo("FAILED");
        });
        assertThat(o.record().status()).isEqualTo(RunStatus.FAILED);
        // Its control-plane log group waits for it (EKS writes into the group until the cluster is gone).
        assertThat(CleanupRecord.leftovers(o.record()))
                .containsExactlyInAnyOrder(
                        "eks:cluster/tp-quickstart-eks", "logs:log-group//aws/eks/tp-quickstart-eks/cluster");
        assertThat(o.report().resources().remaining()).anyMatch(ref -> ref.startsWith("eks:cluster/"));
        assertThat(o.report().events()).doesNotContain("Run Cleaned Up").containsOnlyOnce("Run Failed");
    }

    @Test
    void aRunWhoseOwnCleanupTimedOutGetsAFreshDeadline() {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            var lambdas = new LocalLambdas(cloud, Faults.none());
            LocalSafetyNet.install(cloud, lambdas);
            new Handlers(cloud).start(quickstart, "quickstart");
            // As the run made it: tagged with the stack and the run, which is what lets cleanup delete it.
            var tags = new io.trainplane.aws.RunTags(LocalCloud.STACK, "quickstart")
                    .asMap().entrySet().stream()
                            .map(t -> software.amazon.awssdk.services.efs.model.Tag.builder()
                                    .key(t.getKey())
                                    .value(t.getValue())
                                    .build())
                            .toList();
            String fs = cloud.efs()
                    .createFileSystem(r ->
                            r.creationToken("quickstart-volume").encrypted(true).tags(tags))
                    .fileSystemId();
            java.time.Instant longAgo = cloud.clock().instant();
            cloud.clock().advance(java.time.Duration.ofHours(3));
            var store = StepWiring.runStore(cloud.clients());
            store.update("quickstart", r -> r.withResource(io.trainplane.runs.RunResources.FILE_SYSTEM, fs)
                    .withResource(io.trainplane.runs.RunResources.CLEANUP_STARTED, longAgo)
                    .withStatus(RunStatus.FAILED));

            cloud.bus()
                    .emit(
                            "default",
                            "aws.states",
                            LocalSafetyNet.STATUS_CHANGE,
                            io.trainplane.core.Json.object()
                                    .put("stateMachineArn", LocalCloud.PIPELINE_ARN)
                                    .put("name", "quickstart")
                                    .put("status", "FAILED"));

            assertThat(cloud.stepFunctions().executions()).singleElement().satisfies(c -> assertThat(c.status())
                    .isEqualTo("SUCCEEDED"));
            cloud.reconcile();
            assertThat(cloud.awsResources()).noneMatch(r -> r.ref().equals("efs:file-system/" + fs));
            assertThat(CleanupRecord.finished(store.get("quickstart"))).isTrue();
        }
    }
}
