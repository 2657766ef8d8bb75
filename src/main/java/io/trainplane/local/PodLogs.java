package io.trainplane.local;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.trainplane.kubernetes.JobPods;
import io.trainplane.kubernetes.RunObjects;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The logs of a local run's pods, kept after the run: the simulated cluster goes when the run
 * ends, and cleanup deletes the pods before that, so {@link #capture} reads every pod of the run
 * just before they go ({@link #beforePodsGo}) and keeps the longest log seen; {@link #save}
 * writes them as {@code logs/RUN/POD.log} in the local store for {@code trainplane logs --local}.
 */
public final class PodLogs {
    static final String DIR = "logs";
    /**
     * The pipeline's states after which pods go (training-pipeline.asl.json): ReleaseWorkers deletes
     * the workers' nodes, and their pods with them; Teardown the run's Kubernetes objects.
     */
    static final java.util.Set<String> PODS_GO = java.util.Set.of("ReleaseWorkers", "Teardown");

    /**
     * Whether the pods are about to go: the pipeline enters ReleaseWorkers or Teardown, or the execution ends (an
     * aborted or failed one is cleaned up by the safety net after that). Reading logs only then,
     * not after every Task, keeps a local run as fast as without the store.
     */
    public static boolean beforePodsGo(String eventType, String stateName) {
        return ("TaskStateEntered".equals(eventType) && PODS_GO.contains(stateName))
                || "ExecutionAborted".equals(eventType)
                || "ExecutionFailed".equals(eventType)
                || "ExecutionTimedOut".equals(eventType);
    }

    /** The API servers the run's pods may be on: every cluster of the local cloud. */
    private final java.util.function.Supplier<java.util.List<KubernetesClient>> clients;

    private final String runId;
    private final Map<String, String> logs = new TreeMap<>();

    public PodLogs(java.util.function.Supplier<java.util.List<KubernetesClient>> clients, String runId) {
        this.clients = clients;
        this.runId = runId;
    }

    public void capture() {
        for (KubernetesClient client : clients.get()) {
            capture(client);
        }
    }

    private void capture(KubernetesClient client) {
        try {
            for (Pod pod : client.pods()
                    .inAnyNamespace()
                    .withLabel(RunObjects.RUN_LABEL, runId)
                    .list()
                    .getItems()) {
                String name = pod.getMetadata().getName();
                String log = JobPods.log(client, pod.getMetadata().getNamespace(), name, null, false);
                if (log != null && log.length() >= logs.getOrDefault(name, "").length()) {
                    logs.put(name, log);
                }
            }
        } catch (KubernetesClientException | IllegalStateException e) {
            // A log is a convenience: the run goes on without it (or its cluster was just deleted).
        }
    }

    public Map<String, String> logs() {
        return Map.copyOf(logs);
    }

    /** Writes the logs to {@code storeDir/logs/RUN/}, replacing those of an earlier run of the same id. */
    public void save(Path storeDir) {
        Path dir = directory(storeDir, runId);
        try {
            if (Files.isDirectory(dir)) {
                try (Stream<Path> old = Files.list(dir)) {
                    for (Path f : old.toList()) {
                        Files.delete(f);
                    }
                }
            }
            if (!logs.isEmpty()) {
                Files.createDirectories(dir);
                for (var e : logs.entrySet()) {
                    Files.writeString(dir.resolve(e.getKey() + ".log"), e.getValue());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The pods' logs a local run left in the store, by pod name; empty when it kept none. */
    public static Map<String, String> read(Path storeDir, String runId) {
        Path dir = directory(storeDir, runId);
        Map<String, String> found = new TreeMap<>();
        if (!Files.isDirectory(dir)) {
            return found;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".log"))
                    .toList()) {
                String name = f.getFileName().toString();
                found.put(name.substring(0, name.length() - ".log".length()), Files.readString(f));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found;
    }

    static Path directory(Path storeDir, String runId) {
        return storeDir.resolve(DIR).resolve(runId);
    }
}
