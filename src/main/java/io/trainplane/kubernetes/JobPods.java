package io.trainplane.kubernetes;

import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Optional;

/** The pods of a Job, and what they say when they end: termination messages and log tails. */
public final class JobPods {
    static final String JOB_NAME_LABEL = "batch.kubernetes.io/job-name";
    static final int TAIL_LINES = 30;

    private final KubernetesClient client;
    private final String namespace;
    private final String jobName;

    public JobPods(KubernetesClient client, String namespace, String jobName) {
        this.client = client;
        this.namespace = namespace;
        this.jobName = jobName;
    }

    public List<Pod> list() {
        return client.pods().inNamespace(namespace).withLabel(JOB_NAME_LABEL, jobName).list().getItems();
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

    /** The last lines of a failed pod: its termination message (logs on error), else its log. */
    public Optional<String> failureTail() {
        Optional<String> message = terminationMessage("Failed");
        if (message.isPresent()) {
            return message.map(JobPods::tail);
        }
        return list().stream()
                .filter(p -> p.getStatus() != null && "Failed".equals(p.getStatus().getPhase()))
                .findFirst()
                .flatMap(this::logTail);
    }

    public Optional<String> logTail(Pod pod) {
        try {
            String log = client.pods().inNamespace(namespace).withName(pod.getMetadata().getName())
                    .tailingLines(TAIL_LINES).getLog();
            return Optional.ofNullable(log).filter(l -> !l.isBlank());
        } catch (KubernetesClientException e) {
            return Optional.empty();
        }
    }

    private static Optional<ContainerStateTerminated> terminated(Pod pod) {
        List<ContainerStatus> statuses = pod.getStatus().getContainerStatuses();
        if (statuses == null || statuses.isEmpty() || statuses.get(0).getState() == null) {
            return Optional.empty();
        }
        return Optional.ofNullable(statuses.get(0).getState().getTerminated());
    }

    static String tail(String text) {
        List<String> lines = text.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
    }
}
