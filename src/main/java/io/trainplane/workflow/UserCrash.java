package io.trainplane.workflow;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.kubernetes.JobPods;
import io.trainplane.kubernetes.UserTraceback;
import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.runs.RunStore;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A crash of the user's code while the training still goes, told from a lost node: restarts are for
 * node loss only. torchrun restarts its worker group after any failure while --max-restarts allows,
 * a crash of the user's code as well as a peer lost with its node ("Maximum number of worker group
 * restarts before failing", https://docs.pytorch.org/docs/stable/elastic/run.html), and a Job or an
 * operator may create a failed pod again; the pod fails only when they give up. So each look at a
 * training that has not ended asks whether a worker failed with no node lost, and if so fails the
 * run with the failing rank's exception at once, after its first attempt: teardown stops what would
 * have run it again.
 *
 * <p>A worker failed with the user's code when its pod's log has torchrun's line for a failed
 * worker with an exit code (1-127: not a signal, which torchrun reports negative) after a
 * traceback of the user's ({@link UserTraceback}), or, where a failed pod is created again, its pod
 * failed with such an exit code. No node
 * was lost when no training pod has the {@code DisruptionTarget} condition
 * (https://kubernetes.io/docs/concepts/workloads/pods/disruptions/#pod-disruption-conditions) or is
 * being deleted, the run record notes no interruption, and every training pod's node exists and
 * is Ready (https://kubernetes.io/docs/reference/node/node-status/#condition). Anything else is
 * left to the interruption counting ({@link TrainingInterruptions}) and the job's own end.
 */
final class UserCrash {
    /** torchrun's agent, for a worker that failed (torch/distributed/elastic/multiprocessing/api.py). */
    static final Pattern WORKER_FAILED = Pattern.compile("\\] failed \\(exitcode: (-?\\d+)\\)");

    private final RunStore store;

    UserCrash(RunStore store) {
        this.store = store;
    }

    /**
     * Throws TrainingFailed when a worker of {@code kind} {@code jobName} failed with the user's code
     * and no node was lost. {@code restarts}: how many times the workload would run a crash again
     * (torchrun's --max-restarts; an MPIJob's launcher Job's backoffLimit), 0 where a crash already
     * fails the job by itself (and the job says so). {@code failedPodsRetried}: whether a pod that
     * failed is created again (an MPIJob's launcher); an Indexed Job's FailJob rule and a
     * PyTorchJob's restartPolicy ExitCode fail the job on it instead.
     */
    void look(
            RunContext run,
            KubernetesClient client,
            String kind,
            String jobName,
            JobPods pods,
            int restarts,
            boolean failedPodsRetried) {
        if (restarts <= 0) {
            return;
        }
        List<Pod> training = pods.list().stream()
                .filter(p -> p.getMetadata().getLabels() != null
                        && "training".equals(p.getMetadata().getLabels().get(WorkloadManifests.COMPONENT)))
                .toList();
        if (training.isEmpty()
                || !JobPods.interrupted(training).isEmpty()
                || training.stream().anyMatch(p -> p.getMetadata().getDeletionTimestamp() != null)) {
            return;
        }
        for (Pod pod : training) {
            Optional<Crash> crash = crash(pods, pod, failedPodsRetried);
            if (crash.isPresent()
                    && training.stream().allMatch(p -> nodeReady(client, p))
                    && store.get(run.runId()).interruptions().isEmpty()) {
                throw failed(kind, jobName, pod, crash.get(), restarts);
            }
        }
    }

    /** A worker's failure: its exit code and the user's traceback before it. */
    record Crash(int exitCode, UserTraceback raised, String log) {}

    private static Optional<Crash> crash(JobPods pods, Pod pod, boolean failedPodsRetried) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        if (!"Running".equals(phase) && !("Failed".equals(phase) && failedPodsRetried)) {
            return Optional.empty();
        }
        String log = pods.longLog(pod.getMetadata().getName()).orElse("");
        Optional<UserTraceback> raised = UserTraceback.in(log);
        if (raised.isEmpty() || fromAPeer(raised.get())) {
            return Optional.empty();
        }
        Integer exit = null;
        Matcher m = WORKER_FAILED.matcher(log);
        while (m.find()) {
            exit = Integer.parseInt(m.group(1));
        }
        if (exit == null && "Failed".equals(phase)) {
            exit = JobPods.terminated(pod).map(t -> t.getExitCode()).orElse(null);
        }
        return exit != null && exit >= 1 && exit <= 127
                ? Optional.of(new Crash(exit, raised.get(), log))
                : Optional.empty();
    }

    /**
     * Whether the exception is what a worker raises when a peer goes (torch.distributed's own errors:
     * DistBackendError, DistNetworkError, DistStoreError; a collective's connection closed or reset):
     * the survivors of a lost node fail so before Kubernetes marks the node NotReady (40 s by
     * default, kube-controller-manager's --node-monitor-grace-period,
     * https://kubernetes.io/docs/reference/command-line-tools-reference/kube-controller-manager/).
     * Such a failure is left to the interruptions and the job's own end.
     */
    static boolean fromAPeer(UserTraceback raised) {
        String e = raised.exception();
        return e.startsWith("torch.distributed.") || PEER_GONE.matcher(e).find();
    }

    private static final Pattern PEER_GONE = Pattern.compile(
            "^Dist(Backend|Network|Store)?Error\\b|gloo|nccl|c10d|connection (closed|reset) by peer|broken pipe"
                    + "|socket timeout",
            Pattern.CASE_INSENSITIVE);

    /** Whether the pod's node exists and is Ready; false for a pod not yet bound, or a node that cannot be read. */
    private static boolean nodeReady(KubernetesClient client, Pod pod) {
        String nodeName = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        if (nodeName == null) {
            return "Pending"
                    .equals(pod.getStatus() == null ? null : pod.getStatus().getPhase());
        }
        try {
            Node node = client.nodes().withName(nodeName).get();
            return node != null
                    && node.getStatus() != null
                    && node.getStatus().getConditions() != null
                    && node.getStatus().getConditions().stream()
                            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
        } catch (KubernetesClientException e) {
            return false;
        }
    }

    /** The log's last lines that the record keeps: those after the traceback's start, at most {@value #TAIL_LINES}. */
    static final int TAIL_LINES = 40;

    private static TerminalException failed(String kind, String jobName, Pod pod, Crash crash, int restarts) {
        String what = "the training " + kind + " " + jobName + ": pod "
                + pod.getMetadata().getName()
                + "'s training failed (exit code " + crash.exitCode() + ") with no node lost; restarts"
                + " (training.maxRestarts " + restarts + ")"
                + " are for a lost node, so the run fails after one attempt";
        List<String> lines = crash.log().lines().toList();
        String last = String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
        String tail =
                last.contains(crash.raised().text()) ? last : crash.raised().text() + "\n…\n" + last;
        return new TerminalException(
                FailureReason.TrainingFailed,
                crash.raised().summary() + " — " + what + FailureReport.TAIL_MARKER + tail);
    }
}
