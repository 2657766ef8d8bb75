package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.local.sim.ClusterFault;
import io.trainplane.local.sim.ExistingCluster;
import io.trainplane.local.sim.ExistingCluster.NodeGroup;
import io.trainplane.local.sim.ExistingCluster.Software;
import io.trainplane.spec.KubernetesVersions;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * End to end, through the real state machine: a cluster that refuses what EKS refuses (a taint
 * the pods do not tolerate, more GPUs than a node has, no device plugin, no CSI driver, add-ons
 * that cannot schedule) makes the run fail with that diagnosis, in bounded simulated time, and
 * leaves nothing behind. Each case comes from the simulation's own mechanics (scheduler, device
 * plugins, add-on workloads, volume mounts), provoked by a {@link ClusterFault} or a cluster
 * described by {@link ExistingCluster}; what the product refuses before creating anything is
 * tested as that refusal.
 */
class ClusterRulesRunTest {
    /**
     * What a run that reaches its training may take before failing: cluster and node groups (about
     * half an hour simulated), the data job, then PENDING_TIMEOUT_MINUTES (15) of a stuck pod, and
     * the teardown. A run that hung instead would go on to training.timeoutMinutes (240 by default)
     * or the spec's maxRunHours (4 for quickstart, 3 for the GPU example).
     */
    static final Duration TO_TRAINING_AND_DIAGNOSIS = Duration.ofMinutes(75);
    /** A refusal before anything is created takes the few steps of StartRun, ConnectCluster and FinishRun. */
    static final Duration REFUSAL = Duration.ofMinutes(5);

    static ObjectNode example(String name) throws IOException {
        return (ObjectNode) Json.read(Files.readString(Path.of("examples", name)));
    }

    record Outcome(RunReport report, List<String> leftInCloud) {}

    static Outcome run(ObjectNode spec, ClusterFault fault, Consumer<LocalCloud> prepare) {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            prepare.accept(cloud);
            RunReport r = new LocalRun(cloud, fault == null ? Faults.none() : Faults.onCluster(fault), e -> {})
                    .execute(
                            RunSpecs.normalize(Json.write(spec)),
                            spec.path("runId").asText());
            cloud.reconcile();
            // Log reads and status looks are plain requests: nothing waits on a watch.
            org.assertj.core.api.Assertions.assertThat(
                            cloud.kubernetesClusters().watches())
                    .as("watches asked of the API servers")
                    .isZero();
            return new Outcome(r, cloud.inventory());
        }
    }

    /** The version a cluster made on the simulated day would run, as the demo cluster does. */
    static String today(LocalCloud cloud) {
        return KubernetesVersions.newestInStandardSupport(
                        KubernetesVersions.day(cloud.clock().instant()))
                .orElseThrow();
    }

    /** Fails in {@code state} with {@code reason}, in bounded time, created something and left nothing. */
    static RunReport assertFailedAndClean(Outcome o, String state, String reason, Duration bound) {
        RunReport r = o.report();
        assertThat(r.status()).as(r.cause()).isEqualTo("FAILED");
        assertThat(r.failedState()).as(r.error() + " " + r.cause()).isEqualTo(state);
        assertThat(r.error() + " " + r.cause()).contains(reason).doesNotContain("\"apiVersion\"");
        assertThat(Duration.ofSeconds(r.simulatedSeconds())).isLessThan(bound);
        assertThat(r.resources().remaining()).isEmpty();
        assertThat(o.leftInCloud()).isEmpty();
        System.out.printf(
                "%s: %s at %s after %s simulated, %d ms wall%n%s%n",
                r.runId(),
                r.error(),
                r.failedState(),
                Duration.ofSeconds(r.simulatedSeconds()),
                r.wallMillis(),
                r.cause());
        return r;
    }

    @Test
    void workerNodesWithATaintThePodsDoNotTolerateLeaveTheTrainingUnschedulable() throws IOException {
        Outcome o = run(example("quickstart.json"), ClusterFault.UNTOLERATED_TAINT, c -> {});

        RunReport r = assertFailedAndClean(o, "CheckTraining", "Unschedulable", TO_TRAINING_AND_DIAGNOSIS);
        // 2 tainted workers and the system node, which the pods do not select.
        assertThat(r.cause())
                .contains("0/3 nodes are available")
                .contains("2 node(s) had untolerated taint(s)")
                .contains("1 node(s) didn't match Pod's node affinity/selector")
                .contains("nodes carry taints the pod does not tolerate");
        assertThat(r.resources().created()).anyMatch(c -> c.startsWith("kubernetes:Job/"));
    }

    @Test
    void rootVolumesOfEksDefaultSizeFillWithThePyTorchImageAndTheRunFailsNamingDiskGiB() throws IOException {
        // 20 GiB (EKS's default) instead of the 30 the spec would size for this image: the system and
        // PyTorch's image nearly fill a worker; the outputs job's AWS CLI image leaves it under 10 % free.
        ObjectNode spec = example("quickstart.json");
        ((ObjectNode) spec.path("cluster").path("nodeGroup")).put("diskGiB", 20);
        Outcome o = run(spec, null, c -> {});

        RunReport r = assertFailedAndClean(o, "CheckOutputs", "NodeDiskFull", TO_TRAINING_AND_DIAGNOSIS);
        assertThat(r.cause())
                .contains("the outputs job")
                .contains("was evicted (The node was low on resource: ephemeral-storage.")
                .contains("raise cluster.nodeGroup.diskGiB");
    }

    @Test
    void aNodeGroupStatedWithMoreGpusThanItsTypeHasIsRefusedBeforeAnythingIsCreated() throws IOException {
        // gpusPerNode is a fact of the type: a g5.2xlarge has one GPU, not four. Stated otherwise, the
        // run is refused with the type's real figures instead of waiting for pods that never schedule.
        ObjectNode spec = example("gpu-single-node.json");
        ((ObjectNode) spec.path("cluster").path("nodeGroup")).put("gpusPerNode", 4);
        ((ObjectNode) spec.path("training")).put("gpusPerWorker", 4);

        assertThat(io.trainplane.spec.RunSpecs.problems(spec.toString()))
                .extracting(io.trainplane.spec.SpecProblem::message)
                .contains("is 4, but g5.2xlarge has 1 NVIDIA A10G GPU (8 vCPUs, 32 GiB; EC2 catalog of "
                        + io.trainplane.spec.InstanceShapes.date() + ")");
    }

    @Test
    void gpuNodesWhoseDevicePluginIsRemovedAdvertiseNoGpus() throws IOException {
        Outcome o = run(example("gpu-single-node.json"), ClusterFault.DEVICE_PLUGIN_REMOVED, c -> {});

        RunReport r = assertFailedAndClean(o, "CheckTraining", "Unschedulable", TO_TRAINING_AND_DIAGNOSIS);
        assertThat(r.cause())
                .contains("1 Insufficient nvidia.com/gpu")
                .contains("the NVIDIA device plugin does not run on the GPU nodes");
        assertThat(r.resources().created()).anyMatch(c -> c.contains("nvidia-device-plugin-daemonset"));
    }

    @Test
    void anExistingGpuClusterWithoutTheDevicePluginIsRefusedBeforeAnythingIsCreated() throws IOException {
        ObjectNode spec = example("existing-cluster.json");
        spec.put("runId", "gpu-no-plugin");
        ((ObjectNode) spec.path("cluster")).put("name", "gpu-team");
        ((ObjectNode) spec.path("training")).put("gpusPerWorker", 1);
        Outcome o = run(
                spec,
                null,
                cloud -> cloud.addExistingCluster(new ExistingCluster(
                        "gpu-team",
                        today(cloud),
                        List.of(new NodeGroup(
                                "gpu-workers", "g5.2xlarge", 2, Map.of(), List.of("nvidia.com/gpu=true:NoSchedule"))),
                        Set.of(Software.COREDNS))));

        RunReport r = assertFailedAndClean(o, "ConnectCluster", "nvidia.com/gpu", REFUSAL);
        assertThat(r.cause()).contains("of 2 nodes none advertises GPUs").contains("install the NVIDIA device plugin");
        assertThat(r.resources().created()).isEmpty();
    }

    @Test
    void anExistingClusterWithoutTheEfsCsiDriverIsRefusedBeforeAnythingIsCreated() throws IOException {
        ObjectNode spec = example("existing-cluster.json");
        spec.put("runId", "no-csi-driver");
        spec.putObject("volume").put("type", "efs");
        Outcome o = run(spec, null, c -> {});

        RunReport r = assertFailedAndClean(o, "ConnectCluster", "efs.csi.aws.com", REFUSAL);
        assertThat(r.cause()).contains("install the EKS add-on aws-efs-csi-driver");
        assertThat(r.resources().created()).isEmpty();
    }

    @Test
    void anEfsCsiDriverRemovedAfterTheCheckLeavesTheTrainingPodsWaitingForTheirVolume() throws IOException {
        ObjectNode spec = example("existing-cluster.json");
        spec.put("runId", "csi-driver-gone");
        ((ObjectNode) spec.path("cluster")).put("name", "shared-cluster");
        spec.putObject("volume").put("type", "efs");
        Outcome o = run(
                spec,
                ClusterFault.CSI_DRIVER_REMOVED,
                cloud -> cloud.addExistingCluster(new ExistingCluster(
                        "shared-cluster",
                        today(cloud),
                        List.of(new NodeGroup("standard-workers", "m5.xlarge", 2, Map.of(), List.of())),
                        Set.of(Software.COREDNS, Software.AWS_EFS_CSI_DRIVER))));

        RunReport r = assertFailedAndClean(o, "CheckTraining", "FailedMount", TO_TRAINING_AND_DIAGNOSIS);
        assertThat(r.cause())
                .contains("driver name efs.csi.aws.com not found in the list of registered CSI drivers")
                .contains("install the EKS add-on aws-efs-csi-driver");
        assertThat(r.resources().created()).anyMatch(c -> c.startsWith("efs:"));
    }

    @Test
    void addOnsThatCannotScheduleAnywhereGoDegradedAndTheRunFailsInConfigureCluster() throws IOException {
        Outcome o = run(example("quickstart.json"), ClusterFault.EVERY_NODE_TAINTED, c -> {});

        RunReport r = assertFailedAndClean(o, "ConfigureCluster", "aws-efs-csi-driver", TO_TRAINING_AND_DIAGNOSIS);
        assertThat(r.cause()).containsIgnoringCase("degraded").contains("doesn't have the desired number of replicas");
        assertThat(r.resources().created()).anyMatch(c -> c.startsWith("eks:cluster/"));
        assertThat(r.resources().created()).noneMatch(c -> c.startsWith("kubernetes:Job/"));
    }
}
