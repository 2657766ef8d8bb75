package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.TestTime;
import io.trainplane.local.asl.HistoryEvent;
import io.trainplane.local.sim.ExistingCluster;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunStatus;
import io.trainplane.runs.RunStore;
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
import software.amazon.awssdk.services.eks.model.Nodegroup;

/**
 * examples/warm-cluster.json on the twin's trainplane-warm: no cluster is created, the warm node
 * group goes from zero to the run's nodes and back to zero, on success, failure, abort and through
 * the janitor; a second run is refused while one holds the node group.
 */
class WarmClusterRunTest {
    static final String REF = LocalCloud.WARM_CLUSTER + "/gpu-workers";
    static String spec;
    static Set<String> taskStates;

    @BeforeAll
    static void readExample() throws IOException {
        spec = Files.readString(Path.of("examples/warm-cluster.json"));
    }

    record Outcome(
            RunReport report,
            RunRecord record,
            Nodegroup nodegroup,
            List<Integer> desiredSizes /* as they changed */,
            String holder) {}

    static Outcome run(LocalCloud cloud, Faults faults, String abortAt, List<HistoryEvent> history) {
        List<Integer> sizes = new ArrayList<>();
        RunReport report = new LocalRun(cloud, faults, e -> {
                    history.add(e);
                    int desired = nodegroup(cloud).scalingConfig().desiredSize();
                    if (sizes.isEmpty() || sizes.getLast() != desired) {
                        sizes.add(desired);
                    }
                })
                .abortingAt(abortAt)
                .execute(RunSpecs.normalize(spec), "warm-retrain");
        RunStore store = StepWiring.runStore(cloud.clients());
        return new Outcome(
                report,
                store.find("warm-retrain").orElse(null),
                nodegroup(cloud),
                List.copyOf(sizes),
                store.holder(RunStore.Claim.WARM_NODEGROUP, REF).orElse(null));
    }

    static Nodegroup nodegroup(LocalCloud cloud) {
        return cloud.eks()
                .describeNodegroup(r -> r.clusterName(LocalCloud.WARM_CLUSTER).nodegroupName("gpu-workers"))
                .nodegroup();
    }

    @Test
    void theRunScalesTheWarmNodegroupUpAndBackToZeroWithoutCreatingACluster() {
        List<HistoryEvent> history = new ArrayList<>();
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            Outcome o = run(cloud, Faults.none(), null, history);
            assertThat(o.report().status()).isEqualTo("SUCCEEDED");
            assertThat(o.report().resources().remaining()).isEmpty();
            assertThat(o.report().calls())
                    .doesNotContainKey("eks:CreateCluster")
                    .doesNotContainKey("eks:CreateNodegroup");
            assertThat(o.desiredSizes()).containsSubsequence(0, 2, 0);
            assertThat(o.nodegroup().scalingConfig().desiredSize()).isZero();
            assertThat(o.holder()).as("the claim is let go").isNull();
            // Its nodes are the run's cost: two g5.xlarge from the scale-out to the release (+ drain).
            assertThat(o.record().cost().lines())
                    .filteredOn(l -> l.item().equals("EC2 2 × g5.xlarge (warm node group)"))
                    .singleElement()
                    .satisfies(l -> assertThat(l.cost()).isPositive());
            // The training ran on the warm node group's nodes, which are gone now.
            assertThat(cloud.kubernetes(LocalCloud.WARM_CLUSTER)
                            .admin()
                            .nodes()
                            .withLabel("eks.amazonaws.com/nodegroup", "gpu-workers")
                            .list()
                            .getItems())
                    .isEmpty();
            // The workers' nodes go right after the evaluation, before the outputs are copied.
            List<String> states = history.stream()
                    .filter(e -> e.type().equals("TaskStateEntered"))
                    .map(HistoryEvent::stateName)
                    .toList();
            assertThat(states)
                    .containsSubsequence(
                            "ScaleUpWorkers",
                            "ConnectCluster",
                            "StartDataJob",
                            "WarmWorkers",
                            "StartTraining",
                            "CheckEvaluation",
                            "ReleaseWorkers",
                            "StartOutputs",
                            "Teardown");
            taskStates = new LinkedHashSet<>(states);
        }
    }

    @Test
    void aSecondRunIsRefusedWhileAnotherHoldsTheNodegroup() {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunStore store = StepWiring.runStore(cloud.clients());
            assertThat(store.claim(RunStore.Claim.WARM_NODEGROUP, REF, "nightly-041"))
                    .isEmpty();
            Outcome o = run(cloud, Faults.none(), null, new ArrayList<>());
            assertThat(o.report().status()).isEqualTo("FAILED");
            assertThat(o.record().error().error()).isEqualTo("WarmNodegroupBusy");
            assertThat(o.record().error().cause()).contains("nightly-041", "nothing was created");
            assertThat(o.report().resources().created()).isEmpty();
            assertThat(o.desiredSizes()).containsOnly(0);
            assertThat(o.holder()).as("the other run's claim stays").isEqualTo("nightly-041");
            assertThat(o.report().calls()).doesNotContainKey("eks:UpdateNodegroupConfig");
        }
    }

    /** A warm-cluster run on {@code nodegroup} of a cluster whose node groups are as given, refused with {@code error}. */
    static void refused(ExistingCluster.NodeGroup nodegroup, int nodes, String error, String... said) {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            cloud.addExistingCluster(new ExistingCluster(
                    "trainplane-lab",
                    "1.35",
                    List.of(
                            new ExistingCluster.NodeGroup("system", "m5.large", 2, java.util.Map.of(), List.of()),
                            nodegroup),
                    Set.of(ExistingCluster.Software.COREDNS, ExistingCluster.Software.NVIDIA_DEVICE_PLUGIN)));
            String lab = spec.replace(LocalCloud.WARM_CLUSTER, "trainplane-lab")
                    .replace("\"nodes\": 2", "\"nodes\": " + nodes);
            RunReport report =
                    new LocalRun(cloud, Faults.none(), e -> {}).execute(RunSpecs.normalize(lab), "warm-retrain");
            RunRecord record =
                    StepWiring.runStore(cloud.clients()).find("warm-retrain").orElseThrow();
            assertThat(report.status()).isEqualTo("FAILED");
            assertThat(record.error().error()).isEqualTo(error);
            assertThat(record.error().cause()).contains("nothing was created").contains(said);
            assertThat(report.resources().created()).isEmpty();
            assertThat(report.calls()).doesNotContainKey("eks:UpdateNodegroupConfig");
        }
    }

    @Test
    void aNodegroupThatCannotBeWarmIsRefusedBeforeAnythingIsCreated() {
        var gpu = new ExistingCluster.NodeGroup(
                "gpu-workers",
                "g5.xlarge",
                0,
                0,
                4,
                java.util.Map.of(),
                List.of("nvidia.com/gpu=true:NoSchedule"),
                java.util.Map.of("trainplane:warm", "true"));
        refused(
                new ExistingCluster.NodeGroup(
                        "gpu-workers", "g5.xlarge", 0, 0, 4, java.util.Map.of(), gpu.taints(), java.util.Map.of()),
                2,
                "WarmNodegroupNotTagged",
                "aws eks tag-resource");
        refused(
                new ExistingCluster.NodeGroup(
                        "gpu-workers", "g5.xlarge", 1, 1, 4, java.util.Map.of(), gpu.taints(), gpu.tags()),
                2,
                "WarmNodegroupMinSize",
                "minSize=0");
        refused(gpu, 5, "WarmNodegroupTooSmall", "maxSize=5");
        refused(
                new ExistingCluster.NodeGroup(
                        "gpu-workers", "g5.2xlarge", 0, 0, 4, java.util.Map.of(), gpu.taints(), gpu.tags()),
                2,
                "WarmNodegroupType",
                "cluster.instanceType to \"g5.2xlarge\"");
        refused(
                new ExistingCluster.NodeGroup(
                        "gpus", "g5.xlarge", 0, 0, 4, java.util.Map.of(), gpu.taints(), gpu.tags()),
                2,
                "WarmNodegroupNotFound",
                "gpus, system");
    }

    @Test
    void aFailedRunScalesTheNodegroupBackToZero() {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            Outcome o = run(cloud, new Faults(Set.of("CheckTraining"), Set.of()), null, new ArrayList<>());
            assertThat(o.report().status()).isEqualTo("FAILED");
            assertThat(o.desiredSizes()).containsSubsequence(0, 2, 0);
            assertThat(o.nodegroup().scalingConfig().desiredSize()).isZero();
            assertThat(o.holder()).isNull();
            assertThat(o.report().resources().remaining()).isEmpty();
        }
    }

    @TestFactory
    Stream<DynamicTest> anAbortInAnyStateLeavesTheNodegroupAtZero() {
        if (taskStates == null) {
            theRunScalesTheWarmNodegroupUpAndBackToZeroWithoutCreatingACluster();
        }
        // One state of each phase: before the claim, holding it without nodes, with them up, after they went.
        List<String> states = List.of(
                "ScaleUpWorkers",
                "ConnectCluster",
                "StartDataJob",
                "WarmWorkers",
                "CheckTraining",
                "CheckEvaluation",
                "ReleaseWorkers",
                "CheckOutputs",
                "Teardown");
        assertThat(taskStates).containsAll(states);
        return states.stream()
                .map(state -> DynamicTest.dynamicTest("--abort-at " + state, () -> {
                    try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
                        Outcome o = run(cloud, Faults.none(), state, new ArrayList<>());
                        assertThat(o.report().executionStatus()).isEqualTo("ABORTED");
                        assertThat(o.report().status()).isEqualTo("CANCELLED");
                        assertThat(o.nodegroup().scalingConfig().desiredSize()).isZero();
                        assertThat(o.holder()).isNull();
                        assertThat(o.report().resources().remaining()).isEmpty();
                    }
                }));
    }

    @Test
    void theJanitorScalesInTheNodegroupOfARunThatEndedHoldingIt() {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunStore store = StepWiring.runStore(cloud.clients());
            // A run that ended without its cleanup (its record says FAILED) still holds the node group at 2.
            RunRecord ended = store.create(
                    "lost-run",
                    io.trainplane.core.Json.write(RunSpecs.normalize(spec.replace("warm-retrain", "lost-run"))),
                    null);
            store.update("lost-run", r -> r.withStatus(RunStatus.FAILED));
            assertThat(ended).isNotNull();
            assertThat(store.claim(RunStore.Claim.WARM_NODEGROUP, REF, "lost-run"))
                    .isEmpty();
            cloud.eks().updateNodegroupConfig(r -> r.clusterName(LocalCloud.WARM_CLUSTER)
                    .nodegroupName("gpu-workers")
                    .scalingConfig(s -> s.desiredSize(2)));
            cloud.clock().advance(java.time.Duration.ofMinutes(5));

            var swept = LocalJanitor.sweep(cloud);
            assertThat(swept.path("runs").toString()).contains("lost-run", "eks:nodegroup-nodes/" + REF);
            assertThat(nodegroup(cloud).scalingConfig().desiredSize()).isZero();
            assertThat(store.holder(RunStore.Claim.WARM_NODEGROUP, REF)).isEmpty();
        }
    }
}
