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
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The logs of a local run's pods, kept after the run: the simulated cluster goes when the run
 * ends, and cleanup deletes the pods before that, so {@link #capture} reads every pod of the run
 * just before they go ({@link #beforePodsGo}), and whenever the run writes the store while it goes,
 * and keeps the longest log seen; {@link #save} writes them as {@code logs/RUN/POD.log} in the
 * local store for {@code trainplane logs --local}, with the pod {@code logs --follow} follows
 * ({@link JobPods#followed}) and its phase in {@code logs/RUN/}{@value #FOLLOWED}. Each file is
 * replaced whole (written aside, then moved), so a reader in another process never sees half of one.
 */
public final class PodLogs {
    static final String DIR = "logs";
    /** The file naming the training's pod to follow and its phase: two lines. */
    static final String FOLLOWED = "followed";
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
    private Kept followed;

    /** The pod {@code logs --follow} follows, its phase when last read, and its log (empty when none was kept). */
    public record Kept(String pod, String phase, String log) {
        public boolean ended() {
            return "Succeeded".equals(phase) || "Failed".equals(phase);
        }
    }

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
            java.util.List<Pod> pods = client.pods()
                    .inAnyNamespace()
                    .withLabel(RunObjects.RUN_LABEL, runId)
                    .list()
                    .getItems();
            JobPods.followed(pods)
                    .ifPresent(p -> followed = new Kept(
                            p.getMetadata().getName(),
                            p.getStatus() == null ? null : p.getStatus().getPhase(),
                            null));
            for (Pod pod : pods) {
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

    /**
     * Writes the logs to {@code storeDir/logs/RUN/}, each file replaced whole, and deletes the
     * files of an earlier run of the same id that this one has not written.
     */
    public void save(Path storeDir) {
        Path dir = directory(storeDir, runId);
        try {
            Files.createDirectories(dir);
            java.util.Set<String> written = new java.util.HashSet<>();
            for (var e : logs.entrySet()) {
                replace(dir, e.getKey() + ".log", e.getValue());
                written.add(e.getKey() + ".log");
            }
            if (followed != null) {
                replace(dir, FOLLOWED, followed.pod() + "\n" + followed.phase() + "\n");
                written.add(FOLLOWED);
            }
            try (Stream<Path> old = Files.list(dir)) {
                for (Path f : old.toList()) {
                    if (!written.contains(f.getFileName().toString())) {
                        Files.delete(f);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void replace(Path dir, String name, String content) throws IOException {
        Path aside = dir.resolve(name + ".part");
        Files.writeString(aside, content);
        Files.move(aside, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The pod {@code logs --follow} follows, as the run last kept it; empty before its training pod existed. */
    public static java.util.Optional<Kept> followed(Path storeDir, String runId) {
        Path dir = directory(storeDir, runId);
        Path file = dir.resolve(FOLLOWED);
        try {
            if (!Files.isRegularFile(file)) {
                return java.util.Optional.empty();
            }
            java.util.List<String> lines = Files.readAllLines(file);
            if (lines.isEmpty() || lines.get(0).isBlank()) {
                return java.util.Optional.empty();
            }
            String pod = lines.get(0);
            String phase = lines.size() > 1 && !"null".equals(lines.get(1)) ? lines.get(1) : null;
            Path log = dir.resolve(pod + ".log");
            return java.util.Optional.of(new Kept(pod, phase, Files.isRegularFile(log) ? Files.readString(log) : ""));
        } catch (java.nio.file.NoSuchFileException e) {
            // The run replaced it between the two reads: the next look finds the new one.
            return java.util.Optional.empty();
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
                try {
                    found.put(name.substring(0, name.length() - ".log".length()), Files.readString(f));
                } catch (java.nio.file.NoSuchFileException gone) {
                    // An earlier run's log, deleted by the run of the same id writing the store now.
                }
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
