package io.trainplane.kubernetes;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Optional;

/** The pods of a Job, and what they say when they end: termination messages and log tails. */
public final class JobPods {
    static final String JOB_NAME_LABEL = "batch.kubernetes.io/job-name";
    /**
     * The condition of a pod lost to a disruption: its node deleted or shut down, evicted, preempted
     * (https://kubernetes.io/docs/concepts/workloads/pods/disruptions/#pod-disruption-conditions).
     */
    public static final String DISRUPTION_TARGET = "DisruptionTarget";

    /**
     * The annotation (and, since Kubernetes 1.28, label) with an Indexed Job's pod's completion index
     * (https://kubernetes.io/docs/reference/labels-annotations-taints/#batch-kubernetes-io-job-completion-index).
     */
    public static final String COMPLETION_INDEX = "batch.kubernetes.io/job-completion-index";

    /** Whether the pod carries the checkpoint sidecar ({@link WorkloadManifests#withCheckpointSync}). */
    public static boolean syncsCheckpoints(Pod pod) {
        return pod.getSpec().getInitContainers() != null
                && pod.getSpec().getInitContainers().stream()
                        .anyMatch(c -> WorkloadManifests.CHECKPOINT_SYNC.equals(c.getName()));
    }

    /**
     * Why the checkpoint sidecar of one of {@code pods} failed, from its status: the termination
     * message of its last failed run (the kubelet restarts a sidecar and keeps the previous
     * termination in {@code lastState}); empty when none failed.
     */
    public static Optional<String> checkpointSyncFailure(List<Pod> pods) {
        return pods.stream()
                .filter(p -> p.getStatus() != null && p.getStatus().getInitContainerStatuses() != null)
                .flatMap(p -> p.getStatus().getInitContainerStatuses().stream())
                .filter(c -> WorkloadManifests.CHECKPOINT_SYNC.equals(c.getName()))
                .flatMap(c -> java.util.stream.Stream.of(c.getLastState(), c.getState()))
                .filter(state -> state != null && state.getTerminated() != null)
                .map(state -> state.getTerminated())
                .filter(t -> t.getExitCode() != null && t.getExitCode() != 0)
                .map(t -> t.getMessage() == null || t.getMessage().isBlank()
                        ? "the sidecar exited with " + t.getExitCode()
                        : t.getMessage().strip())
                .findFirst();
    }

    /** The pod's completion index (annotation, else label), null when it has none. */
    public static Integer completionIndex(Pod pod) {
        String value = pod.getMetadata().getAnnotations() == null
                ? null
                : pod.getMetadata().getAnnotations().get(COMPLETION_INDEX);
        if (value == null && pod.getMetadata().getLabels() != null) {
            value = pod.getMetadata().getLabels().get(COMPLETION_INDEX);
        }
        try {
            return value == null ? null : Integer.valueOf(value);
        } catch (NumberFormatException notAnIndex) {
            return null;
        }
    }

    static final int TAIL_LINES = 30;
    static final int TRACEBACK_LINES = 1000;

    private final KubernetesClient client;
    private final String namespace;
    private final String jobName;
    private final String jobLabel;

    public JobPods(KubernetesClient client, String namespace, String jobName) {
        this(client, namespace, jobName, JOB_NAME_LABEL);
    }

    /** The pods that carry {@code jobLabel=jobName} (a PyTorchJob's pods have their own label). */
    public JobPods(KubernetesClient client, String namespace, String jobName, String jobLabel) {
        this.client = client;
        this.namespace = namespace;
        this.jobName = jobName;
        this.jobLabel = jobLabel;
    }

    public List<Pod> list() {
        return client.pods()
                .inNamespace(namespace)
                .withLabel(jobLabel, jobName)
                .list()
                .getItems();
    }

    /** The namespace's events about pods (the scheduler's FailedScheduling among them); empty when unreadable. */
    public List<Event> events() {
        try {
            // Filtered here rather than by the field selector involvedObject.kind: the API server
            // honours it, but fabric8's mock server (the local twin) answers it with no event at all,
            // which hid every FailedMount from the diagnosis there.
            return client.v1().events().inNamespace(namespace).list().getItems().stream()
                    .filter(e -> e.getInvolvedObject() != null
                            && ("Pod".equals(e.getInvolvedObject().getKind())
                                    || PodDiagnosis.FAILED_CREATE.equals(e.getReason())))
                    .toList();
        } catch (KubernetesClientException e) {
            return List.of();
        }
    }

    /** The exit code of the first failed pod's main container (of its failed init container when it never ran). */
    public Optional<Integer> failedExitCode() {
        return list().stream()
                .filter(p ->
                        p.getStatus() != null && "Failed".equals(p.getStatus().getPhase()))
                .map(JobPods::terminated)
                .flatMap(Optional::stream)
                .map(ContainerStateTerminated::getExitCode)
                .filter(java.util.Objects::nonNull)
                .findFirst();
    }

    /**
     * The pod whose log tells the training's progress, which {@code logs --follow} follows: of the
     * training's pods (component {@code training}), worker 0 (completion index 0), else the first by name.
     */
    public static Optional<Pod> followed(List<Pod> pods) {
        return pods.stream()
                .filter(p -> p.getMetadata().getLabels() != null
                        && "training".equals(p.getMetadata().getLabels().get(WorkloadManifests.COMPONENT)))
                .min(java.util.Comparator.comparing((Pod p) -> !"0".equals(completionIndexText(p)))
                        .thenComparing(p -> p.getMetadata().getName()));
    }

    private static String completionIndexText(Pod pod) {
        return pod.getMetadata().getAnnotations() == null
                ? null
                : pod.getMetadata().getAnnotations().get(COMPLETION_INDEX);
    }

    /** The pods of {@code pods} that were lost to a disruption (their {@value #DISRUPTION_TARGET} condition is True). */
    public static List<Pod> interrupted(List<Pod> pods) {
        return pods.stream()
                .filter(p -> p.getStatus() != null
                        && p.getStatus().getConditions() != null
                        && p.getStatus().getConditions().stream()
                                .anyMatch(c -> DISRUPTION_TARGET.equals(c.getType()) && "True".equals(c.getStatus())))
                .toList();
    }

    /** The log tail of a pod by name; of its previous container when it restarted. */
    public Optional<String> logTail(String pod, boolean previous) {
        try {
            String log = log(client, namespace, pod, TAIL_LINES, previous);
            return Optional.ofNullable(log).filter(l -> !l.isBlank()).filter(l -> !isApiObject(l));
        } catch (KubernetesClientException e) {
            return Optional.empty();
        }
    }

    /** The termination message of the first pod whose main container ended with this phase. */
    public Optional<String> terminationMessage(String phase) {
        return list().stream()
                .filter(p -> p.getStatus() != null && phase.equals(p.getStatus().getPhase()))
                .map(JobPods::terminated)
                .flatMap(Optional::stream)
                .map(ContainerStateTerminated::getMessage)
                .filter(m -> m != null && !m.isBlank())
                .findFirst();
    }

    /**
     * The last lines of a failed pod: its termination message (logs on error), else its log. A pod
     * that failed with its node (a spot interruption before the training crashed) says nothing of
     * the failure: the others are asked first.
     */
    public Optional<String> failureTail() {
        List<Pod> failed = failed();
        Optional<String> message = failed.stream()
                .map(JobPods::terminated)
                .flatMap(Optional::stream)
                .map(ContainerStateTerminated::getMessage)
                .filter(m -> m != null && !m.isBlank())
                .findFirst();
        if (message.isPresent()) {
            return message.map(JobPods::tail);
        }
        return failed.stream().findFirst().flatMap(this::logTail);
    }

    /**
     * The user's own exception ({@link UserTraceback}): in the log of the first failed pod whose log
     * shows one (the failing rank's pod: with several workers the first failed pod may be one that
     * only ended with it), else in a failed pod's termination message. The log is read further back
     * than its tail: torchrun's summary after the user's traceback takes about 40 lines a failed rank.
     */
    public Optional<UserTraceback> userTraceback() {
        List<Pod> failed = failed();
        return failed.stream()
                .map(p -> userTraceback(p.getMetadata().getName()))
                .flatMap(Optional::stream)
                .findFirst()
                .or(() -> failed.stream()
                        .map(JobPods::terminated)
                        .flatMap(Optional::stream)
                        .map(ContainerStateTerminated::getMessage)
                        .map(UserTraceback::in)
                        .flatMap(Optional::stream)
                        .findFirst());
    }

    /** The user's own exception in the log of the pod {@code pod}, failed or still running. */
    public Optional<UserTraceback> userTraceback(String pod) {
        return longLog(pod).flatMap(UserTraceback::in);
    }

    /** The pod's log as far back as a traceback is looked for; empty when it cannot be read. */
    public Optional<String> longLog(String pod) {
        try {
            return Optional.ofNullable(log(client, namespace, pod, TRACEBACK_LINES, false));
        } catch (KubernetesClientException e) {
            return Optional.empty();
        }
    }

    /** The failed pods, those lost with their node last: they say nothing of why the training failed. */
    private List<Pod> failed() {
        List<Pod> all = list();
        List<Pod> lost = interrupted(all);
        return java.util.stream.Stream.concat(all.stream().filter(p -> !lost.contains(p)), lost.stream())
                .filter(p ->
                        p.getStatus() != null && "Failed".equals(p.getStatus().getPhase()))
                .toList();
    }

    /**
     * The pod's log as it is now (its first container's; {@code tailLines} null for all of it, of
     * the previous container when {@code previous}), or null when there is none. A plain GET of the
     * log subresource: fabric8's getLog first waits up to 5 seconds, with a watch, for the pod to be
     * Ready or ended, which a look at a pod starting or crash-looping does not need (and a Lambda
     * would pay for).
     */
    public static String log(
            KubernetesClient client, String namespace, String pod, Integer tailLines, boolean previous) {
        StringBuilder path = new StringBuilder("/api/v1/namespaces/" + namespace + "/pods/" + pod + "/log");
        java.util.List<String> query = new java.util.ArrayList<>();
        if (tailLines != null) {
            query.add("tailLines=" + tailLines);
        }
        if (previous) {
            query.add("previous=true");
        }
        if (!query.isEmpty()) {
            path.append('?').append(String.join("&", query));
        }
        return client.raw(path.toString());
    }

    public Optional<String> logTail(Pod pod) {
        return logTail(pod.getMetadata().getName(), false);
    }

    /**
     * An API object where a log was expected: a server without a log endpoint (the mock API server
     * of local mode answers with a list) is treated as having no log.
     */
    static boolean isApiObject(String text) {
        return text.startsWith("{\"apiVersion\"") || text.startsWith("{\"kind\"");
    }

    /**
     * How the pod's main container ended; when it never ran, how the init container that failed
     * ended (a pod whose init container fails with restartPolicy Never fails without starting the
     * others, https://kubernetes.io/docs/concepts/workloads/pods/init-containers/#detailed-behavior).
     */
    public static Optional<ContainerStateTerminated> terminated(Pod pod) {
        List<ContainerStatus> statuses = pod.getStatus().getContainerStatuses();
        if (statuses != null
                && !statuses.isEmpty()
                && statuses.get(0).getState() != null
                && statuses.get(0).getState().getTerminated() != null) {
            return Optional.of(statuses.get(0).getState().getTerminated());
        }
        return failedInit(pod).map(c -> c.getState().getTerminated());
    }

    /** The first init container of a pod that ended with a non-zero exit code. */
    private static Optional<ContainerStatus> failedInit(Pod pod) {
        List<ContainerStatus> init = pod.getStatus().getInitContainerStatuses();
        return init == null
                ? Optional.empty()
                : init.stream()
                        .filter(c -> c.getState() != null
                                && c.getState().getTerminated() != null
                                && c.getState().getTerminated().getExitCode() != null
                                && c.getState().getTerminated().getExitCode() != 0)
                        .findFirst();
    }

    /** How the init container {@code name} of a failed pod ended, when it is what failed. */
    public Optional<ContainerStateTerminated> failedInitContainer(String name) {
        return list().stream()
                .filter(p ->
                        p.getStatus() != null && "Failed".equals(p.getStatus().getPhase()))
                .map(JobPods::failedInit)
                .flatMap(Optional::stream)
                .filter(c -> name.equals(c.getName()))
                .map(c -> c.getState().getTerminated())
                .findFirst();
    }

    static String tail(String text) {
        List<String> lines = text.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
    }
}
