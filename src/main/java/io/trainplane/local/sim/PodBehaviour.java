package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** What a simulated pod does once it runs: for how long, how it ends, what it leaves behind. */
public interface PodBehaviour {
    record Outcome(Duration runtime, int exitCode, String terminationMessage) {}

    Outcome outcome(Job job, Pod pod, KubernetesClient client);

    /**
     * The status a pod is stuck in instead of running to its outcome (unschedulable, image not
     * pulled, crash-looping), as the scheduler or the kubelet would write it; empty for a pod that runs.
     */
    default Optional<PodStatus> stuck(Job job, Pod pod, Instant created) {
        return Optional.empty();
    }

    /** Whether someone else deletes this (started) Job now. */
    default boolean deletedBySomeone(Job job, Instant now) {
        return false;
    }

    /**
     * How a running pod ends, or empty while it is still running (a real process). The controller
     * asks at every reconciliation; {@code running} is how long the pod has run in simulated time.
     * By default the outcome is known from the start.
     */
    default Optional<Outcome> poll(Job job, Pod pod, KubernetesClient client, Duration running) {
        return Optional.of(outcome(job, pod, client));
    }

    /** As {@link #poll(Job, Pod, KubernetesClient, Duration)}, knowing every pod of the job ({@code siblings}, itself included). */
    default Optional<Outcome> poll(Job job, Pod pod, List<Pod> siblings, KubernetesClient client, Duration running) {
        return poll(job, pod, client, running);
    }

    /**
     * When a fault that interrupts the training ({@link ClusterFault#NODE_LOST}, {@link
     * ClusterFault#SPOT_INTERRUPTION}) strikes {@code training}, whose workers all run since
     * {@code started}: once {@code afterEpochs} epochs are done, during the next. Empty before
     * then, and when the training ends first; by default the training is never interrupted.
     */
    default Optional<Instant> interruption(Job training, Instant started, int afterEpochs, Instant now) {
        return Optional.empty();
    }

    /**
     * What the pod's init containers do before its containers start: how the one that failed ended
     * (its outcome, {@code failedContainer} named), empty when they all succeeded or it has none.
     * Asked at every reconciliation of a running pod that has init containers: what it does happens once.
     */
    default Optional<InitFailure> initFailure(Job job, Pod pod, KubernetesClient client) {
        return Optional.empty();
    }

    record InitFailure(String failedContainer, Outcome outcome) {}

    /** What the pod has written to its log by {@code now}, as the kubelet would serve it; empty for none. */
    default Optional<String> log(Job job, Pod pod, Instant now) {
        return Optional.empty();
    }

    /**
     * Why the pod's checkpoint sidecar cannot sync (the CLI's error, its termination message before
     * the kubelet restarts it); empty while it syncs, or for a pod without one.
     */
    default Optional<String> sidecarFailure(Pod pod) {
        return Optional.empty();
    }

    /**
     * {@code pod} of {@code job} is deleted while it runs (its Job suspended): the kubelet sends its
     * containers SIGTERM and gives them the pod's grace period before SIGKILL
     * (https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#pod-termination), at
     * simulated time {@code now}. By default nothing of the pod's work outlives it.
     */
    default void terminate(Job job, Pod pod, Instant now) {}

    /** Whether the outputs Job was told a model may be missing ({@link io.trainplane.kubernetes.WorkloadManifests#MODEL_OPTIONAL_ENV}). */
    static boolean modelOptional(Job outputs) {
        return outputs.getSpec().getTemplate().getSpec().getContainers().stream()
                .flatMap(c -> c.getEnv() == null ? java.util.stream.Stream.empty() : c.getEnv().stream())
                .anyMatch(v -> v.getName().equals(io.trainplane.kubernetes.WorkloadManifests.MODEL_OPTIONAL_ENV)
                        && "true".equals(v.getValue()));
    }

    /** Whether {@code pod} has the init container {@code name}. */
    static boolean hasInit(Pod pod, String name) {
        return pod.getSpec().getInitContainers() != null
                && pod.getSpec().getInitContainers().stream()
                        .anyMatch(c -> c.getName().equals(name));
    }
}
