package io.trainplane.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.trainplane.core.FailureReason;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the scheduler and the kubelet wrote, read without a cluster. */
class PodDiagnosisTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final Duration TIMEOUT = Duration.ofMinutes(15);
    static final String NO_GPU = "0/2 nodes are available: 2 Insufficient nvidia.com/gpu.";

    static Pod pod(String name, PodStatus status) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withCreationTimestamp(T0.toString())
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("trainer")
                .withImage("pytorch/pytorch:2.5.1")
                .endContainer()
                .endSpec()
                .withStatus(status)
                .build();
    }

    static PodStatus pending(String message) {
        return new PodStatusBuilder()
                .withPhase("Pending")
                .addNewCondition()
                .withType("PodScheduled")
                .withStatus("False")
                .withReason("Unschedulable")
                .withMessage(message)
                .withLastTransitionTime(T0.toString())
                .endCondition()
                .build();
    }

    static PodStatus waiting(String reason, int restarts, String lastMessage) {
        var status = new ContainerStatusBuilder()
                .withName("trainer")
                .withImage("pytorch/pytorch:2.5.1")
                .withRestartCount(restarts)
                .withNewState()
                .withNewWaiting()
                .withReason(reason)
                .endWaiting()
                .endState();
        if (lastMessage != null) {
            status.withNewLastState()
                    .withNewTerminated()
                    .withExitCode(1)
                    .withMessage(lastMessage)
                    .endTerminated()
                    .endLastState();
        }
        return new PodStatusBuilder()
                .withPhase(reason.contains("Image") ? "Pending" : "Running")
                .withContainerStatuses(status.build())
                .build();
    }

    static PodDiagnosis.Diagnosis diagnose(List<Pod> pods, List<Event> events, Duration after, boolean failed) {
        return PodDiagnosis.of(pods, events, T0.plus(after), TIMEOUT, failed).orElse(null);
    }

    @Test
    void aPodPendingPastTheTimeoutIsUnschedulableWithTheSchedulersReason() {
        var d = diagnose(List.of(pod("p-0", pending(NO_GPU))), List.of(), Duration.ofMinutes(16), false);

        assertThat(d.reason()).isEqualTo(FailureReason.Unschedulable);
        assertThat(d.message()).contains(NO_GPU).contains("p-0").contains("15 minutes");
    }

    @Test
    void aPodPendingLessThanTheTimeoutIsStillWaitedFor() {
        assertThat(diagnose(List.of(pod("p-0", pending(NO_GPU))), List.of(), Duration.ofMinutes(14), false))
                .isNull();
    }

    @Test
    void withoutAConditionMessageTheSchedulersEventSaysWhy() {
        Event event = new EventBuilder()
                .withReason("FailedScheduling")
                .withMessage(NO_GPU)
                .withNewInvolvedObject()
                .withKind("Pod")
                .withName("p-0")
                .endInvolvedObject()
                .build();

        var d = diagnose(List.of(pod("p-0", pending(null))), List.of(event), Duration.ofMinutes(20), false);

        assertThat(d.message()).contains(NO_GPU);
    }

    @Test
    void anImageThatCannotBePulledIsNamed() {
        for (String reason : List.of("ImagePullBackOff", "ErrImagePull")) {
            var d = diagnose(List.of(pod("p-0", waiting(reason, 0, null))), List.of(), Duration.ZERO, false);

            assertThat(d.reason()).isEqualTo(FailureReason.ImagePullFailed);
            assertThat(d.message()).contains("pytorch/pytorch:2.5.1").contains(reason);
        }
    }

    @Test
    void aNodeDiskTooSmallForTheImagesSaysToRaiseDiskGiBWhetherThePullOrTheKubeletFailed() {
        var noSpace = new PodStatusBuilder()
                .withPhase("Pending")
                .addNewContainerStatus()
                .withName("trainer")
                .withImage("pytorch/pytorch:2.5.1")
                .withNewState()
                .withNewWaiting()
                .withReason("ErrImagePull")
                .withMessage(
                        "failed to pull and unpack image \"pytorch/pytorch:2.5.1\": failed to extract layer: write"
                                + " /var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots: no space left on device")
                .endWaiting()
                .endState()
                .endContainerStatus()
                .build();
        var pulled = diagnose(List.of(pod("p-0", noSpace)), List.of(), Duration.ZERO, false);
        assertThat(pulled.reason()).isEqualTo(FailureReason.NodeDiskFull);
        assertThat(pulled.message()).contains("no space left on device").contains("raise cluster.nodeGroup.diskGiB");

        var evicted = new PodStatusBuilder()
                .withPhase("Failed")
                .withReason("Evicted")
                .withMessage("The node was low on resource: ephemeral-storage. Threshold quantity: 3145728Ki,"
                        + " available: 1908408Ki. ")
                .build();
        var d = diagnose(List.of(pod("p-1", evicted)), List.of(), Duration.ZERO, false);
        assertThat(d.reason()).isEqualTo(FailureReason.NodeDiskFull);
        assertThat(d.message())
                .contains("pod p-1 was evicted (The node was low on resource: ephemeral-storage.")
                .contains("raise cluster.nodeGroup.diskGiB");

        // Evicted for memory is not the disk's doing.
        var memory = new PodStatusBuilder()
                .withPhase("Failed")
                .withReason("Evicted")
                .withMessage("The node was low on resource: memory. ")
                .build();
        assertThat(diagnose(List.of(pod("p-2", memory)), List.of(), Duration.ZERO, false))
                .isNull();
    }

    @Test
    void podsTheApiServerForbidsAreDiagnosedFromTheControllersEvent() {
        var event = new io.fabric8.kubernetes.api.model.EventBuilder()
                .withReason("FailedCreate")
                .withType("Warning")
                .withMessage("Error creating: pods \"tp-r1-train-0-abc\" is forbidden: violates PodSecurity"
                        + " \"restricted:latest\": runAsNonRoot != true (pod or container \"trainer\" must set"
                        + " securityContext.runAsNonRoot=true)")
                .withNewInvolvedObject()
                .withKind("Job")
                .withName("tp-r1-train")
                .endInvolvedObject()
                .build();
        var d = diagnose(List.of(), List.of(event), Duration.ZERO, false);
        assertThat(d.reason()).isEqualTo(FailureReason.PodsForbidden);
        assertThat(d.message())
                .contains("the Job tp-r1-train cannot create its pods")
                .contains("violates PodSecurity")
                .contains("exempt the runs' namespaces (tp-*)");
        // Another failure to create (a transient conflict) is no diagnosis.
        event.setMessage("Error creating: Operation cannot be fulfilled on jobs.batch \"tp-r1-train\"");
        assertThat(diagnose(List.of(), List.of(event), Duration.ZERO, false)).isNull();
    }

    @Test
    void aCrashLoopQuotesTheLastTermination() {
        var d = diagnose(
                List.of(pod("p-1", waiting("CrashLoopBackOff", 4, "RuntimeError: boom"))),
                List.of(),
                Duration.ZERO,
                false);

        assertThat(d.reason()).isEqualTo(FailureReason.CrashLoop);
        assertThat(d.message()).contains("p-1").contains("restarted 4 times").contains("RuntimeError: boom");
        assertThat(d.restarted()).isTrue();
    }

    @Test
    void restartsAreACrashLoopOnlyOnceTheJobFails() {
        var restarted = new PodStatusBuilder()
                .withPhase("Running")
                .withContainerStatuses(new ContainerStatusBuilder()
                        .withName("trainer")
                        .withRestartCount(2)
                        .withNewState()
                        .withNewRunning()
                        .endRunning()
                        .endState()
                        .build())
                .build();
        List<Pod> pods = List.of(pod("p-0", restarted));

        assertThat(diagnose(pods, List.of(), Duration.ZERO, false)).isNull();
        assertThat(diagnose(pods, List.of(), Duration.ZERO, true).reason()).isEqualTo(FailureReason.CrashLoop);
    }

    @Test
    void healthyPodsHaveNoDiagnosis() {
        var running = new PodStatusBuilder()
                .withPhase("Running")
                .withContainerStatuses(new ContainerStatusBuilder()
                        .withName("trainer")
                        .withRestartCount(0)
                        .withNewState()
                        .withNewRunning()
                        .endRunning()
                        .endState()
                        .build())
                .build();

        assertThat(diagnose(List.of(pod("p-0", running)), List.of(), Duration.ofHours(3), false))
                .isNull();
    }
    // kube-scheduler's own summaries (kubernetes/kubernetes#116133 quotes the taint form).
    static final String GPU_TAINT = "0/2 nodes are available: 2 node(s) had untolerated taint {nvidia.com/gpu: true}."
            + " preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.";
    // Since 1.34 the summary names no taint (kubernetes/kubernetes#134740); the simulated scheduler writes this.
    static final String UNTOLERATED_TAINTS = "0/1 nodes are available: 1 node(s) had untolerated taint(s)."
            + " preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.";
    static final String NO_EFA = "0/2 nodes are available: 2 Insufficient vpc.amazonaws.com/efa."
            + " preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.";
    // The kubelet's FailedMount texts (kubernetes-sigs/aws-efs-csi-driver#284, #323, #262).
    static final String NO_EFS_DRIVER = "MountVolume.MountDevice failed for volume \"tp-run-shared\" :"
            + " kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver name"
            + " efs.csi.aws.com not found in the list of registered CSI drivers";
    static final String MOUNT_SUMMARY = "Unable to attach or mount volumes: unmounted volumes=[shared],"
            + " unattached volumes=[shared kube-api-access-x2v9z]: timed out waiting for the condition";
    static final String MOUNT_TIMEOUT = "MountVolume.SetUp failed for volume \"tp-run-shared\" : rpc error:"
            + " code = DeadlineExceeded desc = context deadline exceeded";
    // torch's c10d, when the rendezvous host does not resolve (pytorch/pytorch#150532).
    static final String UNRESOLVED = "[W1123 10:02:11.123456 socket.cpp:755] [c10d] The IPv4 network addresses of"
            + " (run-training-0.run-training, 29400) cannot be retrieved (gai error: -2 - Name or service not known).";
    static final String IPV6_ONLY = "[W socket.cpp:601] [c10d] The IPv6 network addresses of"
            + " (run-training-0.run-training, 29400) cannot be retrieved (gai error: -2 - Name or service not known).";

    static PodStatus scheduledButWaiting() {
        return new PodStatusBuilder()
                .withPhase("Pending")
                .addNewCondition()
                .withType("PodScheduled")
                .withStatus("True")
                .withLastTransitionTime(T0.toString())
                .endCondition()
                .withContainerStatuses(new ContainerStatusBuilder()
                        .withName("trainer")
                        .withRestartCount(0)
                        .withNewState()
                        .withNewWaiting()
                        .withReason("ContainerCreating")
                        .endWaiting()
                        .endState()
                        .build())
                .build();
    }

    static Event event(String pod, String reason, String message) {
        return new EventBuilder()
                .withReason(reason)
                .withMessage(message)
                .withNewInvolvedObject()
                .withKind("Pod")
                .withName(pod)
                .endInvolvedObject()
                .build();
    }

    static PodDiagnosis.Diagnosis withLogs(List<Pod> pods, boolean failed, String log) {
        return PodDiagnosis.of(pods, List.of(), T0, TIMEOUT, failed, (pod, previous) -> Optional.of(log))
                .orElse(null);
    }

    @Test
    void tooFewGpusSayWhetherTheDevicePluginOrTheSpecIsAtFault() {
        var d = diagnose(List.of(pod("p-0", pending(NO_GPU))), List.of(), Duration.ofMinutes(16), false);

        assertThat(d.message())
                .contains("no node has that many free nvidia.com/gpu")
                .contains("NVIDIA device plugin")
                .contains("training.gpusPerWorker asks more GPUs than one node has");
    }

    @Test
    void anUntoleratedGpuTaintPointsAtTheSystemNodeGroup() {
        var d = diagnose(List.of(pod("coredns-0", pending(GPU_TAINT))), List.of(), Duration.ofMinutes(16), false);

        assertThat(d.reason()).isEqualTo(FailureReason.Unschedulable);
        assertThat(d.message())
                .contains(GPU_TAINT)
                .contains("the GPU nodes carry the taint nvidia.com/gpu=true")
                .contains("untainted (system) node group")
                .doesNotContain("Insufficient")
                .doesNotContain("check the node group's instance type");
    }

    @Test
    void theTaintFreeWordingOfNewerSchedulersPointsAtTheSystemNodeGroupToo() {
        var d = diagnose(
                List.of(pod("coredns-0", pending(UNTOLERATED_TAINTS))), List.of(), Duration.ofMinutes(16), false);

        assertThat(d.reason()).isEqualTo(FailureReason.Unschedulable);
        assertThat(d.message())
                .contains(UNTOLERATED_TAINTS)
                .contains("nodes carry taints the pod does not tolerate")
                .contains("untainted (system) node group")
                .doesNotContain("check the node group's instance type");
    }

    @Test
    void tooFewEfaInterfacesPointAtTheEfaDevicePlugin() {
        var d = diagnose(List.of(pod("p-0", pending(NO_EFA))), List.of(), Duration.ofMinutes(16), false);

        assertThat(d.message()).contains("EFA device plugin").contains("vpc.amazonaws.com/efa");
    }

    @Test
    void aMissingEfsCsiDriverIsAFailedMountWithTheAddOnToInstall() {
        List<Event> events =
                List.of(event("p-0", "FailedMount", NO_EFS_DRIVER), event("p-0", "FailedMount", MOUNT_SUMMARY));

        assertThat(diagnose(List.of(pod("p-0", scheduledButWaiting())), events, Duration.ofMinutes(14), false))
                .as("still within the pending timeout")
                .isNull();
        var d = diagnose(List.of(pod("p-0", scheduledButWaiting())), events, Duration.ofMinutes(16), false);

        assertThat(d.reason()).isEqualTo(FailureReason.FailedMount);
        assertThat(d.message())
                .contains(NO_EFS_DRIVER)
                .contains("install the EKS add-on aws-efs-csi-driver")
                .contains("efs-csi-node");
    }

    @Test
    void anUnreachableMountTargetIsAFailedMountAboutZonesAndSecurityGroups() {
        List<Event> events =
                List.of(event("p-0", "FailedMount", MOUNT_TIMEOUT), event("p-0", "FailedMount", MOUNT_SUMMARY));

        var d = diagnose(List.of(pod("p-0", scheduledButWaiting())), events, Duration.ofMinutes(16), false);

        assertThat(d.reason()).isEqualTo(FailureReason.FailedMount);
        assertThat(d.message())
                .contains(MOUNT_TIMEOUT)
                .contains("mount target in the node's Availability Zone")
                .contains("NFS (TCP 2049)");
    }

    @Test
    void aCrashLoopShowsTheLogTail() {
        var d = withLogs(
                List.of(pod("p-1", waiting("CrashLoopBackOff", 3, null))),
                false,
                "epoch 1\nTraceback (most recent call last):\nValueError: bad batch");

        assertThat(d.reason()).isEqualTo(FailureReason.CrashLoop);
        assertThat(d.message()).contains("last lines of its log:\nepoch 1").contains("ValueError: bad batch");
    }

    @Test
    void aRendezvousHostThatDoesNotResolveBlamesTheClusterDns() {
        var d = withLogs(
                List.of(pod("p-1", waiting("CrashLoopBackOff", 2, null))),
                false,
                "starting torchrun\n" + UNRESOLVED + "\ntorch.distributed.DistNetworkError: The client socket has"
                        + " failed to connect to any network address of (run-training-0.run-training, 29400).");

        assertThat(d.reason()).isEqualTo(FailureReason.RendezvousUnresolved);
        assertThat(d.message())
                .contains("gai error: -2 - Name or service not known")
                .contains("CoreDNS is not running")
                .contains("--addon-name coredns");
    }

    @Test
    void aFailedPodWhoseLogShowsAnUnresolvedNameIsDiagnosedOnceTheJobFails() {
        var failed = new PodStatusBuilder()
                .withPhase("Failed")
                .withContainerStatuses(new ContainerStatusBuilder()
                        .withName("trainer")
                        .withRestartCount(0)
                        .withNewState()
                        .withNewTerminated()
                        .withExitCode(1)
                        .endTerminated()
                        .endState()
                        .build())
                .build();
        String log = "socket.gaierror: [Errno -3] Temporary failure in name resolution";

        assertThat(withLogs(List.of(pod("p-0", failed)), false, log)).isNull();
        assertThat(withLogs(List.of(pod("p-0", failed)), true, log).reason())
                .isEqualTo(FailureReason.RendezvousUnresolved);
    }

    @Test
    void c10dsIpv6WarningAloneIsNoDnsFailure() {
        var d = withLogs(
                List.of(pod("p-1", waiting("CrashLoopBackOff", 2, null))),
                false,
                IPV6_ONLY + "\nValueError: bad batch");

        assertThat(d.reason()).isEqualTo(FailureReason.CrashLoop);
    }
}
