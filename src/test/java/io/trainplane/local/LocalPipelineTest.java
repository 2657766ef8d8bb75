package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.TestTime;
import io.trainplane.local.asl.HistoryEvent;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunStatus;
import io.trainplane.runs.StepEntry;
import io.trainplane.spec.RunSpecs;
import io.trainplane.workflow.StepWiring;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** The real state machine with the real handlers on the simulated cloud, end to end, with faults. */
class LocalPipelineTest {
    static String quickstart;
    /** The Task states a successful run enters, read from a real run's history (not a hand-written list). */
    static Set<String> taskStates;
    /** The healthy quickstart run, shared with the other tests that read one (ExampleRuns). */
    static Outcome happy;

    record Outcome(RunReport report, List<HistoryEvent> history, RunRecord record, List<StepEntry> steps) {
        List<String> entered() {
            return history.stream()
                    .filter(e -> e.type().endsWith("StateEntered"))
                    .map(HistoryEvent::stateName)
                    .toList();
        }
    }

    @BeforeAll
    static void happyRun() throws IOException {
        quickstart = Files.readString(Path.of("examples/quickstart.json"));
        ExampleRuns.Outcome ok = ExampleRuns.quickstart();
        happy = new Outcome(ok.report(), ok.history(), ok.record(), ok.steps());
        taskStates = new LinkedHashSet<>();
        happy.history().stream()
                .filter(e -> e.type().equals("TaskStateEntered"))
                .forEach(e -> taskStates.add(e.stateName()));
    }

    static Outcome run(Faults faults) {
        List<HistoryEvent> history = new ArrayList<>();
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunReport report =
                    new LocalRun(cloud, faults, history::add).execute(RunSpecs.normalize(quickstart), "quickstart");
            var store = StepWiring.runStore(cloud.clients());
            return new Outcome(report, history, store.find("quickstart").orElse(null), store.steps("quickstart"));
        }
    }

    @Test
    void quickstartSucceedsWithMetricsAndLeavesNothingBehind() {
        Outcome ok = happy;
        RunReport r = ok.report();

        assertThat(r.status()).isEqualTo("SUCCEEDED");
        assertThat(r.executionStatus()).isEqualTo("SUCCEEDED");
        assertThat(r.failedState()).isNull();
        assertThat(r.metrics().get("accuracy")).isGreaterThan(0.6);
        assertThat(r.events())
                .containsExactly(
                        "Run Started", "Training Job Completed", "Model Evaluated", "Run Cleaned Up", "Run Succeeded");
        assertThat(r.resources().remaining()).isEmpty();
        assertThat(r.resources().created())
                .contains(
                        "kubernetes:Namespace/tp-quickstart",
                        "kubernetes:Job/tp-quickstart/" + new io.trainplane.spec.Names("quickstart").trainingJob());
        assertThat(r.resources().created())
                .filteredOn(c -> c.startsWith("kubernetes:Pod/") && !c.contains("-prepull-"))
                .as("data, two workers, evaluation, outputs")
                .hasSize(5);
        assertThat(r.resources().created())
                .filteredOn(c -> c.contains("-prepull-"))
                .as("the image pre-pull on each node: the system node and the two workers'")
                .hasSize(3);
        assertThat(r.calls()).containsKey("eks:DescribeCluster");
        assertThat(r.stateTransitions()).isGreaterThan(taskStates.size());
        assertThat(ok.record().status()).isEqualTo(RunStatus.SUCCEEDED);
        // The timeline names the state that ran each step (CheckEvaluation, not its function CheckJob);
        // looks that found nothing ready are left out (polls, and OpenMountTargets and StartConfiguration,
        // which ask for the mount targets and the add-ons and go on without waiting).
        assertThat(ok.steps())
                .extracting(StepEntry::state)
                .containsSubsequence(
                        "StartRun",
                        "CreateCluster",
                        "CreateVolume",
                        "CheckCluster",
                        "CreateNodegroup",
                        "ConnectCluster",
                        "CheckNodegroup",
                        "ConfigureCluster",
                        "CheckVolume",
                        "BindVolume",
                        "StartDataJob",
                        "CheckData",
                        "CheckWorkers",
                        "StartTraining",
                        "CheckTraining",
                        "StartEvaluation",
                        "CheckEvaluation",
                        "ReleaseWorkers",
                        "StartOutputs",
                        "CheckOutputs",
                        "CollectResults",
                        "CheckTeardown",
                        "FinishRun");
        assertThat(r.resources().created())
                .anyMatch(c -> c.startsWith("eks:cluster/"))
                .anyMatch(c -> c.startsWith("eks:nodegroup/"))
                .anyMatch(c -> c.startsWith("efs:file-system/"))
                .anyMatch(c -> c.startsWith("efs:mount-target/"))
                .anyMatch(c -> c.startsWith("kubernetes:PersistentVolumeClaim/tp-quickstart/"));
        assertThat(ok.entered()).contains("WaitForTraining");
    }

    @Test
    void theHappyPathEntersEveryPhase() {
        assertThat(taskStates)
                .contains(
                        "StartRun",
                        "CreateCluster",
                        "CheckCluster",
                        "CreateNodegroup",
                        "CheckNodegroup",
                        "ConfigureCluster",
                        "ConnectCluster",
                        "CreateVolume",
                        "CheckVolume",
                        "BindVolume",
                        "StartDataJob",
                        "CheckData",
                        "StartTraining",
                        "CheckTraining",
                        "StartEvaluation",
                        "CheckEvaluation",
                        "ReleaseWorkers",
                        "StartOutputs",
                        "CheckOutputs",
                        "CollectResults",
                        "CheckTeardown",
                        "FinishRun",
                        "OpenMountTargets",
                        "StartConfiguration",
                        "CheckWorkers");
    }

    @TestFactory
    Stream<DynamicTest> aTaskThatAlwaysFailsEndsTheRunFailedAfterCleanup() {
        return taskStates.stream()
                .map(state -> DynamicTest.dynamicTest("--fail-at " + state, () -> {
                    Outcome o = run(new Faults(Set.of(state), Set.of()));
                    RunReport r = o.report();
                    assertThat(r.status()).isEqualTo("FAILED");
                    assertThat(r.executionStatus()).isEqualTo("FAILED");
                    assertThat(r.failedState()).isEqualTo(state);
                    assertThat(r.error()).isEqualTo("InjectedFault");
                    assertThat(r.resources().remaining()).isEmpty();
                    assertThat(r.events()).last().isEqualTo("Run Failed");
                    if (!Set.of("Teardown", "CheckTeardown", "FinishRun").contains(state)) {
                        assertThat(o.entered()).contains("RecordFailure", "Teardown");
                    }
                    if (state.equals("StartRun")) {
                        // StartRun creates the record; failing before that leaves none, and creates nothing.
                        assertThat(o.record()).isNull();
                        assertThat(r.resources().created()).isEmpty();
                    } else {
                        assertThat(o.record().status()).isEqualTo(RunStatus.FAILED);
                        assertThat(o.record().error().state()).isEqualTo(state);
                        assertThat(o.record().error().cause()).contains("--fail-at");
                    }
                }));
    }

    @TestFactory
    Stream<DynamicTest> aTaskThatFailsOnceTransientlyIsRetried() {
        return taskStates.stream()
                .map(state -> DynamicTest.dynamicTest("--flaky " + state, () -> {
                    Outcome o = run(new Faults(Set.of(), Set.of(state)));
                    assertThat(o.report().status())
                            .as(
                                    "failed at %s: %s %s (cleanup: %s)",
                                    o.report().failedState(),
                                    o.report().error(),
                                    o.report().cause(),
                                    o.report().cleanup())
                            .isEqualTo("SUCCEEDED");
                    assertThat(o.report().resources().remaining()).isEmpty();
                    assertThat(o.history())
                            .filteredOn(e -> e.type().equals("TaskFailed")
                                    && e.stateName().equals(state))
                            .hasSize(1);
                }));
    }

    @Test
    void whenRecordingTheFailureFailsTooTheRunStillEndsFailedAndClean() {
        Outcome o = run(new Faults(Set.of("CheckTraining", "RecordFailure"), Set.of()));
        assertThat(o.report().status()).isEqualTo("FAILED");
        assertThat(o.report().failedState()).isEqualTo("CheckTraining");
        assertThat(o.report().resources().remaining()).isEmpty();
        assertThat(o.entered()).contains("Teardown", "FinishRun");
    }

    @Test
    void whenFinishRunFailsTheLastResortMarksTheRunFailed() {
        Outcome o = run(new Faults(Set.of("FinishRun"), Set.of()));
        assertThat(o.entered()).contains("RecordFinishFailure");
        assertThat(o.record().status()).isEqualTo(RunStatus.FAILED);
        assertThat(o.report().executionStatus()).isEqualTo("FAILED");
    }
}
