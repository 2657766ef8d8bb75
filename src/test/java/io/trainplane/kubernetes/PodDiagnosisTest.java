package io.trainplane.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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

        assertThat(d.reason()).isEqualTo("Unschedulable");
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

            assertThat(d.reason()).isEqualTo("ImagePullFailed");
            assertThat(d.message()).contains("pytorch/pytorch:2.5.1").contains(reason);
        }
    }

    @Test
    void aCrashLoopQuotesTheLastTermination() {
        var d = diagnose(
                List.of(pod("p-1", waiting("CrashLoopBackOff", 4, "RuntimeError: boom"))),
                List.of(),
                Duration.ZERO,
                false);

        assertThat(d.reason()).isEqualTo("CrashLoop");
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
        assertThat(diagnose(pods, List.of(), Duration.ZERO, true).reason()).isEqualTo("CrashLoop");
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
}
