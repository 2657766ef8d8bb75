package io.trainplane.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.trainplane.core.Json;
import io.trainplane.core.TerminalException;
import io.trainplane.kubernetes.JobPods;
import io.trainplane.kubernetes.RunObjects;
import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.local.PodLogs;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.spec.Names;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.eks.model.ResourceNotFoundException;

/**
 * A run's logs: the failure's log tail from the run record, then the logs of the run's pods,
 * read through the cluster's Kubernetes API while the cluster and the pods exist (for a local
 * run: the logs it kept in the local store). Whatever is gone is said, not an error.
 */
@Command(
        name = "logs",
        mixinStandardHelpOptions = true,
        description =
                "Show a run's logs: the failure's log tail from the run record, and the pods' logs through the Kubernetes API while the run's cluster and pods exist.")
final class LogsCommand extends OneRunCommand implements Callable<Integer> {
    @ArgGroup(exclusive = true, multiplicity = "1")
    TableOptions.WithTable table;

    @Option(
            names = "--tail",
            defaultValue = "100",
            paramLabel = "N",
            description = "the last N lines of each pod's log (default ${DEFAULT-VALUE})")
    int tail;

    @Option(names = "--output", defaultValue = "text", paramLabel = "FORMAT", description = OutputFormat.HELP)
    OutputFormat output;

    @Option(
            names = {"-f", "--follow"},
            description = "then follow the training pod's log (its first worker), printing new lines until the"
                    + " pod ends; Ctrl-C stops following, the run goes on")
    boolean follow;

    @Option(
            names = "--interval",
            defaultValue = "2",
            paramLabel = "SECONDS",
            description = "with --follow: seconds between two reads of the log (default ${DEFAULT-VALUE})")
    double interval;

    /** How many lines one read of a followed log asks for: more than a training prints between two reads. */
    static final int FOLLOW_WINDOW = 1000;

    /** One pod's log; {@code log} null when it could not be read ({@code note} says why). */
    record PodLog(String pod, String component, String phase, String log, String note) {}

    /** The pods' logs found, and a note when there are none (the cluster or the pods are gone). */
    record Pods(String cluster, String namespace, List<PodLog> logs, String note) {}

    @Override
    public Integer call() {
        if (tail <= 0) {
            throw new UserInputException("--tail must be a positive number of lines, e.g. --tail 100");
        }
        if (follow && output.structured()) {
            throw new UserInputException("--follow prints lines as they come: use it with --output text");
        }
        if (!(interval > 0) || interval > 3600) {
            throw new UserInputException(
                    "--interval must be more than 0 and at most 3600 seconds, e.g. --interval 2; it was " + interval);
        }
        RunRecord run;
        Pods pods;
        try (TableOptions.Source source = table.open(clients)) {
            run = find(source);
            pods = source.isLocal() ? localPods(source) : clusterPods(run);
            PrintWriter out = command.commandLine().getOut();
            if (output.structured()) {
                out.println(output.write(toJson(run, pods)));
                return Main.SUCCEEDED;
            }
            if (!follow) {
                print(out, run, pods);
                return Main.SUCCEEDED;
            }
            return follow(out, source);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Main.SUCCEEDED;
        }
    }

    /**
     * Follows the training's first pod: reads its log (a plain GET of the log subresource, the last
     * {@value #FOLLOW_WINDOW} lines; no watch, no streaming) every {@code --interval} and prints the
     * lines after those already printed, until the pod has ended and its last lines are out. Waits
     * for the pod while the run goes on; ends when the run ends without one. A local run going on
     * in another process is followed the same way, through the log it keeps in the store.
     */
    private int follow(PrintWriter out, TableOptions.Source source) throws InterruptedException {
        Duration pause = Duration.ofMillis(Math.max(1, Math.round(interval * 1000)));
        List<String> printed = new ArrayList<>();
        String following = null;
        boolean waitingTold = false;
        while (true) {
            // Asked before the record is read: the local run writes its last logs and record before it lets go.
            boolean localRunGoes =
                    source.isLocal() && LiveStore.running(source.local().dir(), runId);
            RunRecord run = find(source);
            Optional<PodLogs.Kept> pod =
                    source.isLocal() ? PodLogs.followed(source.local().dir(), runId) : clusterPod(run);
            if (pod.isEmpty()) {
                if (following != null || run.status().isTerminal()) {
                    out.println("("
                            + (following == null
                                    ? "the run " + run.status() + " without a training pod to follow"
                                    : "pod " + following + " is gone")
                            + ")");
                    return Main.SUCCEEDED;
                }
                if (!waitingTold) {
                    out.println("(waiting for the training pod: the run is " + run.status() + ")");
                    waitingTold = true;
                }
            } else {
                String name = pod.get().pod();
                if (!name.equals(following)) {
                    out.println("== pod " + name + " (following; Ctrl-C stops) ==");
                    following = name;
                    printed.clear();
                }
                String log = pod.get().log();
                for (String line : newLines(printed, log == null ? List.of() : lastLines(log, FOLLOW_WINDOW))) {
                    out.println(line);
                    printed.add(line);
                }
                if (pod.get().ended()) {
                    out.println("(pod " + name + " " + pod.get().phase() + ")");
                    return Main.SUCCEEDED;
                }
                if (source.isLocal() && run.status().isTerminal()) {
                    // The simulated cluster went with the run: the pod will not end any other way.
                    out.println("(pod " + name + " is gone)");
                    return Main.SUCCEEDED;
                }
            }
            if (source.isLocal() && !localRunGoes && !run.status().isTerminal()) {
                out.println("(the run stopped at " + run.status()
                        + ": the 'trainplane run' that ran it ended before the run did; nothing more will come)");
                return Main.SUCCEEDED;
            }
            out.flush();
            clients.sleep(pause);
        }
    }

    /** The training's first pod in the run's cluster, with its phase and the last lines of its log. */
    private Optional<PodLogs.Kept> clusterPod(RunRecord run) {
        String cluster = run.resources().get(RunResources.KUBERNETES_CLUSTER).orElse(null);
        String namespace = run.resources().get(RunResources.NAMESPACE).orElse(new Names(runId).namespace());
        if (cluster == null) {
            return Optional.empty();
        }
        return trainingPod(cluster, namespace).map(pod -> {
            String name = pod.getMetadata().getName();
            String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
            String log;
            try {
                log = JobPods.log(clients.clusters().connect(cluster), namespace, name, FOLLOW_WINDOW, false);
            } catch (KubernetesClientException e) {
                log = null;
            }
            return new PodLogs.Kept(name, phase, log);
        });
    }

    /** The pod whose log tells the training's progress ({@link JobPods#followed}). */
    private Optional<Pod> trainingPod(String cluster, String namespace) {
        try {
            KubernetesClient k8s = clients.clusters().connect(cluster);
            return JobPods.followed(k8s.pods()
                    .inNamespace(namespace)
                    .withLabel(RunObjects.RUN_LABEL, runId)
                    .list()
                    .getItems());
        } catch (TerminalException | KubernetesClientException | ResourceNotFoundException e) {
            return Optional.empty();
        }
    }

    private static List<String> lastLines(String log, int n) {
        List<String> lines = log.lines().toList();
        return lines.subList(Math.max(0, lines.size() - n), lines.size());
    }

    /**
     * The lines of {@code read} after those already printed: a read is the log's last lines, so it
     * starts inside what was printed; the longest end of {@code printed} that {@code read} starts
     * with is where it goes on. A read that overlaps nothing printed is all new.
     */
    static List<String> newLines(List<String> printed, List<String> read) {
        for (int overlap = Math.min(printed.size(), read.size()); overlap > 0; overlap--) {
            if (printed.subList(printed.size() - overlap, printed.size()).equals(read.subList(0, overlap))) {
                return read.subList(overlap, read.size());
            }
        }
        return read;
    }

    private Pods localPods(TableOptions.Source source) {
        Map<String, String> kept = PodLogs.read(source.local().dir(), runId);
        List<PodLog> logs = new ArrayList<>();
        kept.forEach((pod, log) -> logs.add(new PodLog(pod, null, null, tail(log, tail), null)));
        return new Pods(
                null,
                null,
                logs,
                kept.isEmpty()
                        ? "this local run kept no pod logs (its simulated cluster ended with it; runs with --no-store keep nothing)"
                        : "kept by the local run when it ended; its simulated cluster is gone");
    }

    private Pods clusterPods(RunRecord run) {
        String cluster = run.resources().get(RunResources.KUBERNETES_CLUSTER).orElse(null);
        String namespace = run.resources().get(RunResources.NAMESPACE).orElse(new Names(runId).namespace());
        if (cluster == null) {
            return new Pods(
                    null,
                    namespace,
                    List.of(),
                    "the run has no Kubernetes objects any more"
                            + (run.status().isTerminal() ? " (cleanup removed them)" : " (none yet)")
                            + ": no pod logs to read");
        }
        try {
            clients.eks().describeCluster(r -> r.name(cluster));
        } catch (ResourceNotFoundException e) {
            return new Pods(
                    cluster,
                    namespace,
                    List.of(),
                    "cluster " + cluster + " no longer exists: the pods' logs went with it");
        }
        List<PodLog> logs = new ArrayList<>();
        try {
            KubernetesClient k8s = clients.clusters().connect(cluster);
            List<Pod> found = k8s.pods()
                    .inNamespace(namespace)
                    .withLabel(RunObjects.RUN_LABEL, runId)
                    .list()
                    .getItems();
            for (Pod pod : found.stream()
                    .sorted(Comparator.comparing(p -> p.getMetadata().getName()))
                    .toList()) {
                logs.add(read(k8s, namespace, pod));
            }
        } catch (TerminalException | KubernetesClientException e) {
            return new Pods(cluster, namespace, logs, "cannot read the cluster's Kubernetes API: " + e.getMessage());
        }
        return new Pods(
                cluster,
                namespace,
                logs,
                logs.isEmpty()
                        ? "no pods of the run in namespace " + namespace + " of cluster " + cluster
                                + " (not started, or deleted by cleanup)"
                        : null);
    }

    private PodLog read(KubernetesClient k8s, String namespace, Pod pod) {
        String name = pod.getMetadata().getName();
        String component = pod.getMetadata().getLabels() == null
                ? null
                : pod.getMetadata().getLabels().get(WorkloadManifests.COMPONENT);
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        try {
            String log = JobPods.log(k8s, namespace, name, tail, false);
            return new PodLog(name, component, phase, tail(log == null ? "" : log, tail), null);
        } catch (KubernetesClientException e) {
            return new PodLog(name, component, phase, null, "log unavailable: " + e.getMessage());
        }
    }

    /** The last {@code n} lines (a server may ignore tailLines). */
    static String tail(String log, int n) {
        List<String> lines = log.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
    }

    static ObjectNode toJson(RunRecord run, Pods pods) {
        ObjectNode n = Json.object()
                .put("runId", run.runId())
                .put("status", run.status().name());
        if (run.error() != null) {
            n.putObject("failure")
                    .put("state", run.error().state())
                    .put("error", run.error().error())
                    .put("cause", run.error().cause())
                    .put("logTail", run.error().logTail());
        } else {
            n.putNull("failure");
        }
        n.put("cluster", pods.cluster()).put("namespace", pods.namespace()).put("note", pods.note());
        ArrayNode array = n.putArray("pods");
        for (PodLog p : pods.logs()) {
            array.addObject()
                    .put("pod", p.pod())
                    .put("component", p.component())
                    .put("phase", p.phase())
                    .put("log", p.log())
                    .put("note", p.note());
        }
        return n;
    }

    static void print(PrintWriter out, RunRecord run, Pods pods) {
        out.println("run " + run.runId() + " " + run.status());
        if (run.error() != null) {
            out.println("failed in " + run.error().state() + ": " + run.error().error()
                    + (run.error().cause() == null ? "" : ": " + run.error().cause()));
            String logTail = run.error().logTail();
            if (logTail != null && !logTail.isBlank()) {
                out.println("== the failure's log tail (from the run record) ==");
                logTail.lines().forEach(out::println);
            }
        }
        for (PodLog p : pods.logs()) {
            out.println("== pod " + p.pod()
                    + (p.component() == null
                            ? ""
                            : " (" + p.component() + (p.phase() == null ? "" : ", " + p.phase()) + ")")
                    + " ==");
            if (p.log() != null && p.log().isBlank()) {
                out.println("(no output)");
            } else if (p.log() != null) {
                p.log().lines().forEach(out::println);
            } else {
                out.println("(" + p.note() + ")");
            }
        }
        if (pods.note() != null) {
            out.println("(" + pods.note() + ")");
        }
    }
}
