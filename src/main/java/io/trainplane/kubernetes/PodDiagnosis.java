package io.trainplane.kubernetes;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Why a job's pods do not get anywhere, read from what the scheduler and the kubelet wrote: pods
 * that cannot be scheduled, images that cannot be pulled, containers that keep crashing. A pure
 * function of the pods and their events, so it is tested without a cluster.
 */
public final class PodDiagnosis {
    static final Set<String> IMAGE_PULL = Set.of("ImagePullBackOff", "ErrImagePull", "InvalidImageName");

    /**
     * What went wrong. {@code reason} is the terminal error's name (Unschedulable, ImagePullFailed,
     * CrashLoop); {@code pod} the pod that shows it; {@code restarted} whether its container ran
     * before (its previous log is the one to read); {@code message} says what happened.
     */
    public record Diagnosis(String reason, String message, String pod, boolean restarted) {}

    private PodDiagnosis() {}

    /**
     * @param jobFailed whether the job itself has failed: restarts alone are not a diagnosis while it runs
     */
    public static Optional<Diagnosis> of(
            List<Pod> pods, List<Event> events, Instant now, Duration pendingTimeout, boolean jobFailed) {
        for (Pod pod : pods) {
            Optional<Diagnosis> found = imagePull(pod).or(() -> crashLoop(pod, jobFailed));
            if (found.isPresent()) {
                return found;
            }
        }
        for (Pod pod : pods) {
            Optional<Diagnosis> found = unschedulable(pod, events, now, pendingTimeout);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    private static Optional<Diagnosis> imagePull(Pod pod) {
        for (ContainerStatus status : containerStatuses(pod)) {
            ContainerStateWaiting waiting =
                    status.getState() == null ? null : status.getState().getWaiting();
            if (waiting != null && IMAGE_PULL.contains(waiting.getReason())) {
                String image = Objects.requireNonNullElseGet(status.getImage(), () -> imageOf(pod, status.getName()));
                return Optional.of(new Diagnosis(
                        "ImagePullFailed",
                        "the image " + image + " of pod " + name(pod)
                                + " cannot be pulled (" + waiting.getReason() + detail(waiting.getMessage())
                                + "); check training.image and that the nodes can reach its registry",
                        name(pod),
                        false));
            }
        }
        return Optional.empty();
    }

    private static Optional<Diagnosis> crashLoop(Pod pod, boolean jobFailed) {
        for (ContainerStatus status : containerStatuses(pod)) {
            ContainerStateWaiting waiting =
                    status.getState() == null ? null : status.getState().getWaiting();
            int restarts = status.getRestartCount() == null ? 0 : status.getRestartCount();
            boolean looping = waiting != null && "CrashLoopBackOff".equals(waiting.getReason());
            if (looping || (restarts > 0 && jobFailed)) {
                String last = lastTermination(status)
                        .map(t -> "; last exit code " + t.getExitCode() + detail(t.getReason())
                                + (t.getMessage() == null || t.getMessage().isBlank()
                                        ? ""
                                        : ":\n" + JobPods.tail(t.getMessage())))
                        .orElse("");
                return Optional.of(new Diagnosis(
                        "CrashLoop",
                        "container " + status.getName() + " of pod " + name(pod)
                                + " keeps crashing (restarted " + restarts + " times"
                                + (looping ? ", CrashLoopBackOff" : "") + ")"
                                + last,
                        name(pod),
                        restarts > 0));
            }
        }
        return Optional.empty();
    }

    private static Optional<Diagnosis> unschedulable(Pod pod, List<Event> events, Instant now, Duration timeout) {
        if (pod.getStatus() == null || !"Pending".equals(pod.getStatus().getPhase())) {
            return Optional.empty();
        }
        PodCondition scheduled = condition(pod, "PodScheduled");
        if (scheduled == null || !"False".equals(scheduled.getStatus())) {
            return Optional.empty();
        }
        String since = scheduled.getLastTransitionTime() != null
                ? scheduled.getLastTransitionTime()
                : pod.getMetadata().getCreationTimestamp();
        if (since == null || Duration.between(Instant.parse(since), now).compareTo(timeout) < 0) {
            return Optional.empty();
        }
        String why = scheduled.getMessage() != null && !scheduled.getMessage().isBlank()
                ? scheduled.getMessage()
                : schedulerEvent(pod, events)
                        .orElse(Objects.requireNonNullElse(scheduled.getReason(), "no reason given"));
        return Optional.of(new Diagnosis(
                "Unschedulable",
                "pod " + name(pod) + " has not been scheduled for "
                        + timeout.toMinutes() + " minutes: " + why
                        + "; check the node group's instance type, size and GPUs against training.workers and training.gpusPerWorker",
                name(pod),
                false));
    }

    private static Optional<String> schedulerEvent(Pod pod, List<Event> events) {
        return events.stream()
                .filter(e -> "FailedScheduling".equals(e.getReason()))
                .filter(e -> e.getInvolvedObject() != null
                        && name(pod).equals(e.getInvolvedObject().getName()))
                .map(Event::getMessage)
                .filter(Objects::nonNull)
                .reduce((first, last) -> last);
    }

    private static Optional<ContainerStateTerminated> lastTermination(ContainerStatus status) {
        if (status.getLastState() != null && status.getLastState().getTerminated() != null) {
            return Optional.of(status.getLastState().getTerminated());
        }
        return Optional.ofNullable(
                status.getState() == null ? null : status.getState().getTerminated());
    }

    private static PodCondition condition(Pod pod, String type) {
        List<PodCondition> conditions = pod.getStatus().getConditions();
        return conditions == null
                ? null
                : conditions.stream()
                        .filter(c -> type.equals(c.getType()))
                        .findFirst()
                        .orElse(null);
    }

    private static List<ContainerStatus> containerStatuses(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
            return List.of();
        }
        return pod.getStatus().getContainerStatuses();
    }

    private static String imageOf(Pod pod, String container) {
        return pod.getSpec() == null
                ? "?"
                : pod.getSpec().getContainers().stream()
                        .filter(c -> c.getName().equals(container))
                        .map(c -> c.getImage())
                        .findFirst()
                        .orElse("?");
    }

    private static String detail(String text) {
        return text == null || text.isBlank() ? "" : ": " + text;
    }

    private static String name(Pod pod) {
        return pod.getMetadata().getName();
    }
}
