package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.TestTime;
import io.trainplane.runs.LostEvent;
import io.trainplane.runs.RunRecord;
import io.trainplane.spec.RunSpecs;
import io.trainplane.workflow.StepWiring;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Faults in the simulated AWS, one operation at a time, for every operation a real quickstart run
 * makes (read from that run's call log, not from a list written here).
 */
class InfrastructureFaultsTest {
    static String quickstart;
    static Map<String, Integer> calls;
    static List<String> events;

    @BeforeAll
    static void realRun() throws IOException {
        quickstart = Files.readString(Path.of("examples/quickstart.json"));
        // The healthy quickstart run, shared with the other tests that read one (ExampleRuns).
        RunReport ok = ExampleRuns.quickstart().report();
        assertThat(ok.status()).isEqualTo("SUCCEEDED");
        calls = ok.calls();
        events = ok.events();
        assertThat(ok.warnings()).isEmpty();
    }

    static RunReport run(Faults faults) {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            return new LocalRun(cloud, faults, e -> {}).execute(RunSpecs.normalize(quickstart), "quickstart");
        }
    }

    /** Every AWS operation the run's summary lists: the functions' and the pods' (S3, with the pods' own role). */
    static Stream<String> functionCalls() {
        assertThat(calls).containsKey("s3:PutObject");
        return calls.keySet().stream();
    }

    /**
     * The Lambda service's own faults strike each function's first invocation: a SnapStart version
     * not ready or not restored in time is retried, and an invocation that times out after doing its
     * work is retried too, without doing it twice (every step is idempotent).
     */
    @TestFactory
    Stream<DynamicTest> lambdaFaultsOnEveryFunctionAreRetriedAndTheRunSucceedsLeavingNothing() {
        return Stream.of("lambda:SnapStartNotReady", "lambda:SnapStartTimeout", "lambda:Timeout")
                .map(fault -> DynamicTest.dynamicTest("--fault " + fault, () -> {
                    RunReport r = run(failing(fault));
                    assertThat(r.status()).as(r.error() + " " + r.cause()).isEqualTo("SUCCEEDED");
                    assertThat(r.resources().remaining()).isEmpty();
                    assertThat(r.metrics()).containsKey("accuracy");
                }));
    }

    static Faults failing(String operation) {
        return new Faults(Set.of(), Set.of(), Set.of(operation), Set.of());
    }

    @Test
    void theQuickstartUsesEveryKindOfResource() {
        assertThat(calls)
                .containsKeys(
                        "eks:CreateCluster",
                        "eks:CreateNodegroup",
                        "eks:CreateAddon",
                        "efs:CreateFileSystem",
                        "efs:CreateMountTarget",
                        "eks:DeleteNodegroup",
                        "eks:DeleteCluster",
                        "efs:DeleteMountTarget",
                        "efs:DeleteFileSystem",
                        // The control-plane log group and the launch template, through Cloud Control.
                        "cloudcontrol:CreateResource",
                        "cloudcontrol:GetResourceRequestStatus",
                        "cloudcontrol:DeleteResource");
    }

    @TestFactory
    Stream<DynamicTest> aRefusedOperationFailsTheRunAndLeavesOnlyWhatItCouldNotDelete() {
        return functionCalls()
                .filter(op -> !op.startsWith("events:"))
                .map(op -> DynamicTest.dynamicTest("--fault " + op, () -> {
                    RunReport r = run(failing(op));
                    assertThat(r.status()).isEqualTo("FAILED");
                    assertThat(r.resources().remaining()).as("left behind").allSatisfy(left -> assertThat(
                                    undeletableWithout(op, left))
                            .as(left + " left although only " + op + " failed")
                            .isTrue());
                }));
    }

    /** Whether {@code resource} may stay when {@code operation} always fails: its own delete (or look) failed, or what must go first. */
    static boolean undeletableWithout(String operation, String resource) {
        String service = operation.substring(0, operation.indexOf(':'));
        boolean deletePath = operation.contains("Delete")
                || operation.contains("Describe")
                || operation.contains("List")
                || operation.contains("Get");
        if (!deletePath) {
            return false;
        }
        List<String> blocked = new ArrayList<>();
        // The log group goes after the cluster, the cluster after its launch template (and its add-ons with it).
        switch (service) {
            case "eks" -> blocked.addAll(List.of("eks:", "ec2:", "kubernetes:", "logs:"));
            case "efs" -> blocked.add("efs:");
            case "cloudcontrol" -> blocked.addAll(List.of("ec2:", "eks:", "logs:"));
            default -> {}
        }
        return blocked.stream().anyMatch(resource::startsWith);
    }

    @Test
    void eventsThatCannotBePublishedNeverFailARunAndTheRecordNamesEachOne() {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunReport r = new LocalRun(cloud, failing("events:PutEvents"), e -> {})
                    .execute(RunSpecs.normalize(quickstart), "quickstart");
            assertThat(r.status()).isEqualTo("SUCCEEDED");
            assertThat(r.events()).isEmpty();
            assertThat(r.resources().remaining()).isEmpty();
            // Every event the healthy run published is in the record, once, with the step and the error.
            RunRecord record = StepWiring.runStore(cloud.clients()).get("quickstart");
            assertThat(record.lostEvents()).extracting(LostEvent::detailType).containsExactlyElementsOf(events);
            assertThat(record.lostEvents())
                    .extracting(LostEvent::step)
                    .containsExactly("StartRun", "CheckTraining", "CollectResults", "Teardown", "FinishRun");
            assertThat(record.lostEvents())
                    .allSatisfy(lost -> assertThat(lost.error()).contains("events:PutEvents"));
            assertThat(r.warnings()).hasSameSizeAs(events).allSatisfy(w -> assertThat(w)
                    .contains("was not published"));
            for (int i = 0; i < events.size(); i++) {
                assertThat(r.warnings().get(i)).contains("'" + events.get(i) + "'");
            }
        }
    }

    @Test
    void aThrottledPutEventsIsRetriedAndNothingIsLost() {
        RunReport r = run(new Faults(Set.of(), Set.of(), Set.of(), Set.of("events:PutEvents")));
        assertThat(r.status()).isEqualTo("SUCCEEDED");
        assertThat(r.events()).isEqualTo(events);
        assertThat(r.warnings()).isEmpty();
    }

    @TestFactory
    Stream<DynamicTest> aThrottledOperationIsRetriedAndTheRunSucceeds() {
        return functionCalls()
                .map(op -> DynamicTest.dynamicTest("--throttle " + op, () -> {
                    RunReport r = run(new Faults(Set.of(), Set.of(), Set.of(), Set.of(op)));
                    assertThat(r.status()).isEqualTo("SUCCEEDED");
                    assertThat(r.resources().remaining()).isEmpty();
                }));
    }

    @Test
    void aFailureWhileTheNodegroupIsStillCreatingEndsWithNothingLeft() {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            // CheckNodegroup's first look: the system node group (its launch template is asked for); its
            // second: the system node group, then the workers', created and CREATING; its next look is refused.
            cloud.faults().failAfter("eks:DescribeNodegroup", 3);
            RunReport r =
                    new LocalRun(cloud, Faults.none(), e -> {}).execute(RunSpecs.normalize(quickstart), "quickstart");
            assertThat(r.status()).isEqualTo("FAILED");
            assertThat(r.failedState()).isEqualTo("CheckNodegroup");
            assertThat(r.resources().created())
                    .contains("eks:nodegroup/tp-quickstart-eks/tp-quickstart-nodes")
                    .contains("eks:nodegroup/tp-quickstart-eks/tp-quickstart-system")
                    .anyMatch(c -> c.startsWith("ec2:launch-template/"))
                    .anyMatch(c -> c.startsWith("logs:log-group/"));
            assertThat(r.resources().remaining()).isEmpty();
        }
    }

    @Test
    void aRefusedSystemNodegroupFailsCreateNodegroupAndCleanupLeavesNothing() {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            // The first CreateNodegroup call is the system node group's; the run records it before the call.
            cloud.faults().failAfter("eks:CreateNodegroup", 0);
            RunReport r =
                    new LocalRun(cloud, Faults.none(), e -> {}).execute(RunSpecs.normalize(quickstart), "quickstart");
            assertThat(r.status()).isEqualTo("FAILED");
            assertThat(r.failedState()).isEqualTo("CreateNodegroup");
            assertThat(r.resources().created()).noneMatch(c -> c.startsWith("eks:nodegroup/"));
            assertThat(r.resources().remaining()).isEmpty();
        }
    }

    @Test
    void aFailureAfterTheSystemNodegroupWasCreatedEndsWithNothingLeft() {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            // The system node group is created; the workers' is refused.
            cloud.faults().failAfter("eks:CreateNodegroup", 1);
            RunReport r =
                    new LocalRun(cloud, Faults.none(), e -> {}).execute(RunSpecs.normalize(quickstart), "quickstart");
            assertThat(r.status()).isEqualTo("FAILED");
            assertThat(r.failedState()).isEqualTo("CheckNodegroup");
            assertThat(r.resources().created())
                    .contains("eks:nodegroup/tp-quickstart-eks/tp-quickstart-system")
                    .doesNotContain("eks:nodegroup/tp-quickstart-eks/tp-quickstart-nodes");
            assertThat(r.resources().remaining()).isEmpty();
        }
    }

    @Test
    void aFailureAfterSomeMountTargetsWereCreatedEndsWithNothingLeft() {
        Faults second = new Faults(Set.of(), Set.of(), Set.of(), Set.of());
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            cloud.faults().failAfter("efs:CreateMountTarget", 1);
            RunReport r = new LocalRun(cloud, second, e -> {}).execute(RunSpecs.normalize(quickstart), "quickstart");
            assertThat(r.status()).isEqualTo("FAILED");
            assertThat(r.failedState()).isEqualTo("OpenMountTargets");
            assertThat(r.resources().created())
                    .filteredOn(c -> c.startsWith("efs:mount-target/"))
                    .hasSize(1);
            assertThat(r.resources().remaining()).isEmpty();
        }
    }
}
