package io.trainplane.local.process;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.trainplane.kubernetes.JobPods;
import io.trainplane.kubernetes.MpiJobManifest;
import io.trainplane.kubernetes.PyTorchJobs;
import io.trainplane.kubernetes.SecretFetch;
import io.trainplane.kubernetes.TermExit;
import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.kubernetes.WorkloadScripts;
import io.trainplane.local.sim.ClusterFault;
import io.trainplane.local.sim.PodBehaviour;
import io.trainplane.local.sim.PodS3;
import io.trainplane.local.sim.Rendezvous;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The process runtime of local mode: the pods' commands run as local processes, for real.
 *
 * <ul>
 *   <li>The run's volume ({@code /shared}) is a directory of this runtime's work directory,
 *       {@code /workload} the default scripts extracted from the jar, {@code /dev/termination-log}
 *       a file per pod whose content becomes the container's termination message (with the
 *       log's tail instead when it is empty and the process failed, as {@code FallbackToLogsOnError}).</li>
 *   <li>{@code python}/{@code python3} is the interpreter found by {@link PythonRuntime};
 *       {@code torchrun} is {@code python -m torch.distributed.run}.</li>
 *   <li>The Indexed training Job is an approximation: ONE {@code torchrun --standalone --nnodes=1
 *       --nproc-per-node=<workers × procsPerWorker>} process stands in for all its pods, with the
 *       same world size; the pod of index 0 carries its result (exit code, termination message)
 *       and the other pods end with it. Multi-node rendezvous is not exercised.</li>
 *   <li>An MPIJob's launcher runs no mpirun (there is none here): the processes it would start
 *       ({@code -np}, one per slot) run under one standalone torchrun, which sets the RANK,
 *       WORLD_SIZE, LOCAL_RANK and MASTER_ADDR its launch would give them; the workers' pods only
 *       serve (sshd) and run no process.</li>
 *   <li>Until the data phase exists, training starts with {@code prepare.py --source synthetic}
 *       into {@code /shared/data} when that directory has no {@code .trainplane-ready} marker.</li>
 * </ul>
 *
 * Time: the simulated clock only moves at Waits, so a pod stays Running until its process has
 * exited. At each poll the runtime lets the process run for as long as simulated time has gone
 * ahead of real time since the pod started, so simulated time follows real time while a process
 * runs; the pod's runtime is the process's real duration.
 */
public final class ProcessWorkload implements PodBehaviour, AutoCloseable {
    static final String COMPLETION_INDEX = JobPods.COMPLETION_INDEX;
    static final String MARKER = ".trainplane-ready";
    private static final int MESSAGE_LIMIT = 4096;
    private static final Set<String> TORCHRUN_FLAGS =
            Set.of("--standalone", "--no-python", "--no_python", "--run-path", "--run_path", "-m", "--module");
    private static final Set<String> TORCHRUN_TOPOLOGY = Set.of(
            "--nnodes",
            "--nproc-per-node",
            "--nproc_per_node",
            "--node-rank",
            "--node_rank",
            "--rdzv-backend",
            "--rdzv_backend",
            "--rdzv-endpoint",
            "--rdzv_endpoint",
            "--rdzv-id",
            "--rdzv_id",
            "--rdzv-conf",
            "--rdzv_conf",
            "--master-addr",
            "--master_addr",
            "--master-port",
            "--master_port",
            "--standalone");

    /** How often a training's process is looked at for the checkpoint after which a fault strikes. */
    private static final Duration CHECKPOINT_WATCH = Duration.ofMillis(100);
    /** The training pods' terminationGracePeriodSeconds: how long a SIGTERM'd training may take to checkpoint. */
    private static final Duration GRACE = Duration.ofSeconds(90);

    private final PythonRuntime python;
    private final Path root;
    private final Path shared;
    private final Path scripts;
    /** The built-in scripts where pods with your shipped code find them ({@link WorkloadManifests#BUILTIN_DIR}). */
    private final Path builtin;

    private final boolean keep;
    private final Map<String, Running> processes = new HashMap<>();
    /** The fault that takes a worker's node away mid-training, or null; and after how many epochs (0: half). */
    private volatile ClusterFault interruption;

    private volatile int interruptAfterEpochs;
    /** Training Jobs (by key) whose process the fault stopped: when, in simulated time, until it starts again. */
    private final Map<String, Instant> stopped = new HashMap<>();
    /** Training Jobs (by key) struck once already, and how often their process started again since. */
    private final Map<String, Integer> restarts = new HashMap<>();
    /** The account's S3 as the run's pods reach it (LocalCloud wires it); null: no credentials. */
    private volatile PodS3 s3;
    /** The checkpoints each run's sidecar has put into S3 (by namespace), file names. */
    private final Map<String, Set<String>> synced = new HashMap<>();
    /** Why a pod's checkpoint sidecar could not sync (by pod uid): the CLI's error. */
    private final Map<String, String> syncFailures = new HashMap<>();
    /** Each outputs pod's outcome (by uid), once it has copied. */
    private final Map<String, Outcome> copied = new HashMap<>();

    /** The S3 the outputs pod's {@code aws s3 cp} writes to, with the pod's identity. */
    public ProcessWorkload storingOutputsIn(PodS3 s3) {
        this.s3 = s3;
        return this;
    }

    private record Running(Process process, long startedNanos, Path log, Path termination, String policy) {}

    public ProcessWorkload(PythonRuntime python, Path root, boolean keep) {
        this.python = python;
        this.root = root;
        this.keep = keep;
        try {
            shared = Files.createDirectories(root.resolve("shared"));
            scripts = Files.createDirectories(root.resolve("workload"));
            builtin = Files.createDirectories(root.resolve("builtin"));
            Files.createDirectories(root.resolve("pods"));
            for (Map.Entry<String, String> script : WorkloadScripts.all().entrySet()) {
                Files.writeString(scripts.resolve(script.getKey()), script.getValue());
                Files.writeString(builtin.resolve(script.getKey()), script.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A runtime in a new temporary directory, kept after {@link #close()} when {@code keep}. */
    public static ProcessWorkload inTemporaryDirectory(PythonRuntime python, boolean keep) {
        try {
            return new ProcessWorkload(python, Files.createTempDirectory("trainplane-run-"), keep);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path root() {
        return root;
    }

    @Override
    public Outcome outcome(Job job, Pod pod, KubernetesClient client) {
        return poll(job, pod, client, Duration.ofDays(365)).orElseThrow();
    }

    /**
     * Arms {@code fault} ({@link ClusterFault#NODE_LOST} or {@link ClusterFault#SPOT_INTERRUPTION}):
     * once the training has written the checkpoint of {@code afterEpochs} epochs (0: half of them),
     * its process is stopped as the lost node would stop it (SIGKILL; for a spot interruption,
     * SIGTERM and the grace period to checkpoint) and started again, resuming from its newest
     * checkpoint, once the Job's replacement pod runs. The simulated cluster takes the node away
     * ({@link #interruption}).
     */
    public synchronized void interrupt(ClusterFault fault, int afterEpochs) {
        if (fault != ClusterFault.NODE_LOST && fault != ClusterFault.SPOT_INTERRUPTION) {
            throw new IllegalArgumentException("the process runtime takes only the cluster faults "
                    + ClusterFault.NODE_LOST + " and " + ClusterFault.SPOT_INTERRUPTION + "; " + fault
                    + " is simulated: run with --runtime simulated");
        }
        this.interruption = fault;
        this.interruptAfterEpochs = afterEpochs;
    }

    /** When the armed fault stopped the training's process: the moment the cluster loses the node. */
    @Override
    public synchronized Optional<Instant> interruption(Job training, Instant started, int afterEpochs, Instant now) {
        return Optional.ofNullable(stopped.get(jobKey(training)));
    }

    @Override
    public synchronized Optional<Outcome> poll(
            Job job, Pod pod, List<Pod> siblings, KubernetesClient client, Duration running) {
        String jobKey = jobKey(job);
        if (stopped.containsKey(jobKey)) {
            // torchrun on the workers left waits in the rendezvous until the lost one's replacement runs.
            int workers =
                    job.getSpec().getCompletions() == null ? 1 : job.getSpec().getCompletions();
            List<Pod> lost = JobPods.interrupted(siblings);
            long live = siblings.stream()
                    .filter(p ->
                            !lost.contains(p) && "Running".equals(p.getStatus().getPhase()))
                    .count();
            if (lost.isEmpty() || live < workers) {
                return Optional.empty();
            }
            stopped.remove(jobKey);
            restarts.merge(jobKey, 1, Integer::sum);
        }
        if (onePerJob(job, pod)
                && !processes.containsKey(key(job, pod))
                && Rendezvous.complete(job, siblings).isEmpty()) {
            // torchrun starts training once every worker runs: until then nothing is started.
            return Rendezvous.timedOut(running);
        }
        return poll(job, pod, client, running);
    }

    @Override
    public synchronized Optional<Outcome> poll(Job job, Pod pod, KubernetesClient client, Duration running) {
        if ("outputs".equals(job.getMetadata().getLabels().get(WorkloadManifests.COMPONENT))) {
            return Optional.of(copied.computeIfAbsent(pod.getMetadata().getUid(), uid -> copyOutputs(job, pod)));
        }
        Running process = processes.computeIfAbsent(key(job, pod), k -> start(job, pod, client));
        long realNanos = System.nanoTime() - process.startedNanos;
        long patience = Math.max(0, running.toNanos() - realNanos);
        try {
            if (!waitFor(job, pod, process, patience)) {
                syncCheckpoints(job, pod);
                return Optional.empty();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        // The sidecar's last sync, on the SIGTERM the kubelet sends it once the trainer has exited.
        syncCheckpoints(job, pod);
        boolean restarted = restarts.getOrDefault(jobKey(job), 0) > 0;
        // A process started again after an interruption ends now, for every pod it stands in for.
        Duration runtime = restarted
                ? running
                : Duration.ofNanos(System.nanoTime() - process.startedNanos)
                        .withNanos(0)
                        .plusSeconds(1);
        int exit = process.process.exitValue();
        boolean carriesResult =
                !onePerJob(job, pod) || ("0".equals(index(pod)) && !replica(pod).equals("worker"));
        return Optional.of(new Outcome(runtime, exit, carriesResult ? message(process, exit) : null));
    }

    /** What each pod's fetch-secrets read (by uid), the variables its process gets. */
    private final Map<String, Map<String, String>> secrets = new HashMap<>();

    /** Each data pod's fetch of training.resumeFrom (by uid): its failure, or empty once fetched. */
    private final Map<String, Optional<InitFailure>> fetches = new HashMap<>();

    /**
     * The data pod's fetch-checkpoint init container without the AWS CLI, once: the checkpoint and
     * its .sha256 got as the pod ({@link PodS3#fetchCheckpoint}, the digest checked) and written into
     * the directory the pod's {@code /shared/model} maps to, the digest last as the script renames
     * it, so that the real train.py resumes from it.
     */
    @Override
    public synchronized Optional<InitFailure> initFailure(Job job, Pod pod, KubernetesClient client) {
        return fetches.computeIfAbsent(pod.getMetadata().getUid(), uid -> {
            Duration took = Duration.ofSeconds(2);
            PodS3 store = s3;
            if (store == null) {
                return Optional.of(new InitFailure(
                        pod.getSpec().getInitContainers().getFirst().getName(),
                        new Outcome(took, 255, PodS3.NO_CREDENTIALS)));
            }
            if (PodBehaviour.hasInit(pod, WorkloadManifests.FETCH_CODE)) {
                try {
                    // Every pod copies the same code into its own /workload: one local directory stands for them.
                    installCode(store.fetchCode(pod));
                } catch (PodS3.AwsCliFailed e) {
                    return Optional.of(new InitFailure(
                            WorkloadManifests.FETCH_CODE, new Outcome(took, e.exitCode(), e.getMessage())));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            if (PodBehaviour.hasInit(pod, WorkloadManifests.FETCH_CHECKPOINT)) {
                try {
                    var fetched = store.fetchCheckpoint(pod);
                    Path dir =
                            Files.createDirectories(Path.of(mapPaths(WorkloadManifests.SHARED_DIR + "/model", null)));
                    Files.write(dir.resolve(fetched.fileName()), fetched.checkpoint());
                    Files.write(dir.resolve(fetched.fileName() + ".sha256"), fetched.digest());
                } catch (PodS3.AwsCliFailed e) {
                    return Optional.of(new InitFailure(
                            WorkloadManifests.FETCH_CHECKPOINT, new Outcome(took, e.exitCode(), e.getMessage())));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            if (PodBehaviour.hasInit(pod, SecretFetch.CONTAINER)) {
                try {
                    // Kept in memory only, as the pod's memory-backed volume; the process gets them as variables.
                    secrets.put(uid, store.fetchSecrets(pod));
                } catch (PodS3.AwsCliFailed e) {
                    return Optional.of(
                            new InitFailure(SecretFetch.CONTAINER, new Outcome(took, e.exitCode(), e.getMessage())));
                }
            }
            return Optional.empty();
        });
    }

    /**
     * The outputs container's script (WorkloadManifests#outputsJob) without the AWS CLI: each {@code
     * aws s3 cp} of a file of the shared volume's model directory becomes a put of that real file
     * into the simulated S3 as the pod (its Pod Identity role), as torchrun becomes python. The same
     * choices: model.pt must exist (unless MODEL_OPTIONAL), the metrics when they do, the newest checkpoint whose .sha256
     * matches with its digest; the report carries the SHA-256 of the model file copied.
     */
    private Outcome copyOutputs(Job job, Pod pod) {
        Duration took = Duration.ofSeconds(5);
        PodS3 store = s3;
        if (store == null) {
            return new Outcome(took, 255, PodS3.NO_CREDENTIALS);
        }
        var output = PodS3.destination(job);
        Path dir = Path.of(mapPaths(WorkloadManifests.SHARED_DIR + "/model", null));
        List<String> names = new java.util.ArrayList<>();
        boolean modelRequired = !PodBehaviour.modelOptional(job);
        for (String name : WorkloadManifests.OUTPUT_FILES) {
            if ((modelRequired && name.equals("model.pt")) || Files.isRegularFile(dir.resolve(name))) {
                names.add(name);
            }
        }
        Optional<String> checkpoint = newestVerifiedCheckpoint(dir);
        checkpoint.ifPresent(c -> {
            names.add(c);
            names.add(c + ".sha256");
        });
        String modelSha = null;
        String checkpointSha = "";
        try {
            for (String name : names) {
                Path file = dir.resolve(name);
                if (!Files.isRegularFile(file)) {
                    // The CLI's words for a missing source (exit 255).
                    return new Outcome(
                            took,
                            255,
                            "The user-provided path " + WorkloadManifests.SHARED_DIR + "/model/" + name
                                    + " does not exist.");
                }
                var put = store.put(pod, output.bucket(), output.prefix() + name, Files.readAllBytes(file));
                if (name.equals("model.pt")) {
                    modelSha = put.sha256Hex();
                } else if (checkpoint.filter(name::equals).isPresent()) {
                    checkpointSha = put.sha256Hex();
                }
            }
        } catch (PodS3.AwsCliFailed e) {
            return new Outcome(took, e.exitCode(), e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Outcome(took, 0, PodS3.report(output, modelSha, checkpoint.orElse(""), checkpointSha));
    }

    /**
     * The checkpoint sidecar (WorkloadManifests#checkpointSyncScript) without the AWS CLI: the
     * pod of index 0 that has it puts each checkpoint of the real output directory whose {@code
     * .sha256} exists (train.py writes it after the checkpoint's rename), and then the digest,
     * into the simulated S3 under {@code output.s3Uri}checkpoints/ as the pod, once each. Lenient:
     * it syncs when the controller polls (and when the process ends), not every minute. A failed
     * sync is the sidecar's, not the training's ({@link #sidecarFailure}).
     */
    private void syncCheckpoints(Job job, Pod pod) {
        if (!JobPods.syncsCheckpoints(pod) || !"0".equals(index(pod))) {
            return;
        }
        PodS3 store = s3;
        if (store == null) {
            syncFailures.put(pod.getMetadata().getUid(), PodS3.NO_CREDENTIALS);
            return;
        }
        Path dir = Path.of(mapPaths(WorkloadManifests.SHARED_DIR + "/model", null));
        String run = job.getMetadata().getNamespace();
        Set<String> done = synced.computeIfAbsent(run, r -> new java.util.HashSet<>());
        List<Path> digests;
        try (Stream<Path> files = Files.list(dir)) {
            digests = files.filter(f -> {
                        String n = f.getFileName().toString();
                        return n.startsWith("checkpoint-") && n.endsWith(".pt.sha256");
                    })
                    .sorted()
                    .toList();
        } catch (java.nio.file.NoSuchFileException e) {
            return;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (Path digest : digests) {
            String name = digest.getFileName().toString().replaceFirst("\\.sha256$", "");
            if (done.contains(name)) {
                continue;
            }
            try {
                store.putCheckpoint(pod, name, Files.readAllBytes(dir.resolve(name)), Files.readAllBytes(digest));
            } catch (PodS3.AwsCliFailed e) {
                syncFailures.put(pod.getMetadata().getUid(), e.getMessage());
                return;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            done.add(name);
        }
    }

    @Override
    public synchronized Optional<String> sidecarFailure(Pod pod) {
        return Optional.ofNullable(syncFailures.get(pod.getMetadata().getUid()));
    }

    /** As the script's {@code ls -t checkpoint-*.pt.sha256} and {@code sha256sum -c}: the newest whose digest matches. */
    private static Optional<String> newestVerifiedCheckpoint(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> digests = files.filter(f -> {
                        String n = f.getFileName().toString();
                        return n.startsWith("checkpoint-") && n.endsWith(".pt.sha256");
                    })
                    .sorted(java.util.Comparator.comparing((Path f) -> {
                                try {
                                    return Files.getLastModifiedTime(f);
                                } catch (IOException e) {
                                    throw new UncheckedIOException(e);
                                }
                            })
                            .reversed())
                    .toList();
            for (Path digest : digests) {
                String name = digest.getFileName().toString().replaceFirst("\\.sha256$", "");
                if (!name.matches("[A-Za-z0-9._-]+")) {
                    continue; // as the script's case: only names of safe characters go into the report
                }
                Path checkpoint = dir.resolve(name);
                String recorded = Files.readString(digest).trim().split("\\s+")[0];
                if (Files.isRegularFile(checkpoint)
                        && recorded.equals(java.util.HexFormat.of()
                                .formatHex(java.security.MessageDigest.getInstance("SHA-256")
                                        .digest(Files.readAllBytes(checkpoint))))) {
                    return Optional.of(name);
                }
            }
            return Optional.empty();
        } catch (java.nio.file.NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Waits up to {@code patience} for the process to end, true when it has. A training the armed
     * fault has not struck yet is watched for its checkpoint meanwhile, and stopped when it appears.
     */
    private boolean waitFor(Job job, Pod pod, Running process, long patience) throws InterruptedException {
        Optional<Path> strikeAfter = strikeAfter(job);
        if (strikeAfter.isEmpty()) {
            return process.process.waitFor(patience, TimeUnit.NANOSECONDS);
        }
        long deadline = System.nanoTime() + patience;
        while (!Files.exists(strikeAfter.get())) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            if (process.process.waitFor(Math.min(left, CHECKPOINT_WATCH.toNanos()), TimeUnit.NANOSECONDS)) {
                return true;
            }
        }
        stop(job, pod, process);
        return false;
    }

    /** The digest file of the checkpoint after which the armed fault strikes this training, while it has not. */
    private Optional<Path> strikeAfter(Job job) {
        ClusterFault fault = interruption;
        String jobKey = jobKey(job);
        if (fault == null
                || !indexed(job)
                || !"training".equals(job.getMetadata().getLabels().get(WorkloadManifests.COMPONENT))
                || restarts.containsKey(jobKey)
                || stopped.containsKey(jobKey)) {
            return Optional.empty();
        }
        List<String> command =
                job.getSpec().getTemplate().getSpec().getContainers().get(0).getCommand();
        int output = command.indexOf("--output-dir");
        int epochs = command.indexOf("--epochs");
        if (output < 0 || epochs < 0) {
            return Optional.empty();
        }
        int after = ClusterFault.interruptAfter(interruptAfterEpochs, Integer.parseInt(command.get(epochs + 1)));
        return Optional.of(
                Path.of(mapPaths(command.get(output + 1), null)).resolve("checkpoint-epoch-" + after + ".pt.sha256"));
    }

    /**
     * Stops the training's process as losing a worker's node does: with SIGKILL, the node gone; or
     * for a spot interruption with SIGTERM to torchrun, which passes it to the training processes,
     * and the grace period to write a checkpoint (exit 143).
     */
    private void stop(Job job, Pod pod, Running process) throws InterruptedException {
        long realNanos = System.nanoTime() - process.startedNanos;
        if (interruption == ClusterFault.SPOT_INTERRUPTION) {
            process.process.destroy();
            if (!process.process.waitFor(GRACE.toSeconds(), TimeUnit.SECONDS)) {
                process.process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.process.destroyForcibly();
            }
        } else {
            process.process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.process.destroyForcibly();
        }
        process.process.waitFor();
        processes.values().remove(process);
        try {
            Files.writeString(
                    process.log,
                    "--- " + interruption + ": the process was stopped (exit " + process.process.exitValue() + ")\n",
                    StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // Simulated time follows real time while the process runs: it stopped this long after the pod started.
        stopped.put(jobKey(job), Instant.parse(pod.getStatus().getStartTime()).plusNanos(realNanos));
    }

    private static String jobKey(Job job) {
        return job.getMetadata().getNamespace() + "/" + job.getMetadata().getName() + "/"
                + job.getMetadata().getUid();
    }

    /**
     * One process per Indexed Job or PyTorchJob (per start of it: a restart is a new process), one
     * per pod otherwise: torchrun spans the pods of either.
     */
    /**
     * A pod deleted while its process runs (its Job suspended, when the run's budget is reached): as
     * the kubelet terminates it, SIGTERM to torchrun, which passes it on to the training processes,
     * and the grace period to write a checkpoint (train.py does, and exits 143); then the checkpoint
     * sidecar's last sync.
     */
    @Override
    public synchronized void terminate(Job job, Pod pod, Instant now) {
        Running process = processes.remove(key(job, pod));
        if (process == null) {
            return;
        }
        process.process.destroy();
        try {
            if (!process.process.waitFor(GRACE.toSeconds(), TimeUnit.SECONDS)) {
                process.process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.process.destroyForcibly();
            }
            process.process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        try {
            Files.writeString(
                    process.log,
                    "--- the pod was deleted: the process was stopped (exit " + process.process.exitValue() + ")\n",
                    StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        syncCheckpoints(job, pod);
    }

    private String key(Job job, Pod pod) {
        String jobKey = jobKey(job);
        return onePerJob(job, pod)
                ? jobKey + "#" + restarts.getOrDefault(jobKey, 0)
                : jobKey + "/" + pod.getMetadata().getName();
    }

    private static boolean indexed(Job job) {
        return "Indexed".equals(job.getSpec().getCompletionMode());
    }

    /** Whether one torchrun stands for every pod of {@code job}: an Indexed Job's, or a PyTorchJob's replicas. */
    /**
     * The pod's output so far, as the kubelet serves a container's log: its process's (the Indexed
     * Job's one process for each of its pods); empty before it started.
     */
    @Override
    public Optional<String> log(Job job, Pod pod, Instant now) {
        if (job == null) {
            return Optional.empty();
        }
        String name = onePerJob(job, pod)
                ? job.getMetadata().getName()
                : pod.getMetadata().getName();
        Path log = root.resolve("pods").resolve(name).resolve("log");
        try {
            return Files.isRegularFile(log) ? Optional.of(Files.readString(log)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static boolean onePerJob(Job job, Pod pod) {
        return indexed(job) || !replica(pod).isEmpty();
    }

    /** The PyTorchJob replica type of {@code pod} ({@code master}, {@code worker}), or empty. */
    private static String replica(Pod pod) {
        return pod.getMetadata().getLabels().getOrDefault(PyTorchJobs.REPLICA_TYPE_LABEL, "");
    }

    private static String index(Pod pod) {
        return pod.getMetadata().getLabels().getOrDefault(COMPLETION_INDEX, "0");
    }

    private Running start(Job job, Pod pod, KubernetesClient client) {
        Container container = pod.getSpec().getContainers().get(0);
        String name = onePerJob(job, pod)
                ? job.getMetadata().getName()
                : pod.getMetadata().getName();
        Path dir = root.resolve("pods").resolve(name);
        try {
            Files.createDirectories(dir);
            Path log = dir.resolve("log");
            Path termination = dir.resolve("termination-log");
            Files.deleteIfExists(termination);
            Files.createFile(termination);
            installScripts(pod, client);
            int completions =
                    job.getSpec().getCompletions() == null ? 1 : job.getSpec().getCompletions();
            List<String> command = localCommand(container.getCommand(), container.getArgs(), completions, termination);
            // Your shipped code (working directory /workload) has its own data Job, which ran before.
            if ("training".equals(job.getMetadata().getLabels().get(WorkloadManifests.COMPONENT))
                    && container.getWorkingDir() == null) {
                prepareDataIfMissing(log);
            }
            // A container's workingDir (/workload for your shipped code) is its mapped directory here.
            Path workingDir =
                    container.getWorkingDir() == null ? dir : Path.of(mapPaths(container.getWorkingDir(), termination));
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(workingDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            Map<String, String> env = builder.environment();
            Stream.of(
                            "RANK",
                            "LOCAL_RANK",
                            "WORLD_SIZE",
                            "LOCAL_WORLD_SIZE",
                            "MASTER_ADDR",
                            "MASTER_PORT",
                            "GROUP_RANK")
                    .forEach(env::remove);
            env.put("PYTHONUNBUFFERED", "1");
            for (EnvVar var : container.getEnv() == null ? List.<EnvVar>of() : container.getEnv()) {
                if (var.getValue() != null) {
                    // TRAINPLANE_DATA_DIR and the like name the pod's paths: here, their directories.
                    env.put(var.getName(), mapPaths(var.getValue(), termination));
                }
            }
            env.put("TRAINPLANE_LOCAL_ROOT", root.toString());
            // The wrapper's exports (SecretFetch#EXPORT_SCRIPT), done here: localCommand runs the command it wraps.
            if (SecretFetch.unwrap(container.getCommand()).isPresent()) {
                Map<String, String> values = secrets.get(pod.getMetadata().getUid());
                if (values == null) {
                    throw new IllegalStateException(
                            "pod " + pod.getMetadata().getName() + " starts before its fetch-secrets read anything");
                }
                // As "$(cat file)" gives them: without trailing newlines.
                values.forEach((variable, value) -> env.put(variable, value.replaceAll("\n+$", "")));
            }
            Files.writeString(
                    log,
                    "$ " + String.join(" ", command) + "\n",
                    StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
            return new Running(
                    builder.start(), System.nanoTime(), log, termination, container.getTerminationMessagePolicy());
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "could not start the process of pod " + pod.getMetadata().getName(), e);
        }
    }

    /**
     * The files of the ConfigMaps the pod mounts at {@code /workload} and {@link
     * WorkloadManifests#BUILTIN_DIR} (the run's own) written into their directories here, each key
     * at its item's path when the volume lists items (as the kubelet projects them), text and
     * binaryData alike; what the pod does not mount stays as it is.
     */
    private void installScripts(Pod pod, KubernetesClient client) throws IOException {
        Container container = pod.getSpec().getContainers().get(0);
        if (container.getVolumeMounts() == null || pod.getSpec().getVolumes() == null) {
            return;
        }
        for (var mount : container.getVolumeMounts()) {
            Path target = WorkloadManifests.WORKLOAD_DIR.equals(mount.getMountPath())
                    ? scripts
                    : WorkloadManifests.BUILTIN_DIR.equals(mount.getMountPath()) ? builtin : null;
            var volume = pod.getSpec().getVolumes().stream()
                    .filter(v -> mount.getName().equals(v.getName()) && v.getConfigMap() != null)
                    .findFirst();
            if (target == null || volume.isEmpty()) {
                continue;
            }
            var source = volume.get().getConfigMap();
            ConfigMap found = client.configMaps()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .withName(source.getName())
                    .get();
            if (found == null) {
                continue;
            }
            Map<String, byte[]> content = new HashMap<>();
            if (found.getData() != null) {
                found.getData().forEach((k, v) -> content.put(k, v.getBytes(StandardCharsets.UTF_8)));
            }
            if (found.getBinaryData() != null) {
                found.getBinaryData()
                        .forEach((k, v) ->
                                content.put(k, java.util.Base64.getDecoder().decode(v)));
            }
            Map<String, String> paths = new java.util.LinkedHashMap<>();
            if (source.getItems() == null || source.getItems().isEmpty()) {
                content.keySet().forEach(k -> paths.put(k, k));
            } else {
                source.getItems().forEach(item -> paths.put(item.getKey(), item.getPath()));
            }
            for (Map.Entry<String, String> file : paths.entrySet()) {
                byte[] bytes = content.get(file.getKey());
                Path path = target.resolve(file.getValue()).normalize();
                if (bytes != null && path.startsWith(target)) {
                    Files.createDirectories(path.getParent());
                    Files.write(path, bytes);
                }
            }
        }
    }

    /** The code fetch-code copied, in place of what /workload held: the pods' emptyDir starts empty. */
    private void installCode(java.util.SortedMap<String, byte[]> files) throws IOException {
        try (Stream<Path> old = Files.list(scripts)) {
            for (Path p : old.toList()) {
                if (Files.isDirectory(p)) {
                    try (Stream<Path> tree = Files.walk(p)) {
                        tree.sorted(Comparator.reverseOrder())
                                .forEach(f -> f.toFile().delete());
                    }
                } else {
                    Files.delete(p);
                }
            }
        }
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            Path path = scripts.resolve(file.getKey()).normalize();
            if (path.startsWith(scripts)) {
                Files.createDirectories(path.getParent());
                Files.write(path, file.getValue());
            }
        }
    }

    /** The data phase's work, done before training when nothing prepared the data set yet. */
    private void prepareDataIfMissing(Path log) throws IOException {
        Path data = shared.resolve("data");
        if (Files.exists(data.resolve(MARKER))) {
            return;
        }
        Process prepare = new ProcessBuilder(
                        python.python().toString(),
                        builtin.resolve("prepare.py").toString(),
                        "--data-dir",
                        data.toString(),
                        "--source",
                        "synthetic")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        try {
            if (!prepare.waitFor(10, TimeUnit.MINUTES)) {
                prepare.destroyForcibly();
            }
        } catch (InterruptedException e) {
            prepare.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The pod's command for this machine: the interpreter and torchrun replaced, the container's
     * paths mapped into the work directory, the training's topology folded into one standalone
     * torchrun with the same number of processes.
     */
    List<String> localCommand(List<String> command, List<String> args, int completions, Path termination) {
        List<String> all = new ArrayList<>(command == null ? List.of() : command);
        if (args != null) {
            all.addAll(args);
        }
        // The secrets' shell only exports them (start() sets them), then execs the command it wraps.
        all = new ArrayList<>(SecretFetch.unwrap(all).orElse(all));
        // TermExit's shell only turns the kubelet's SIGTERM into exit 143: the command under it runs.
        all = new ArrayList<>(TermExit.unwrap(all).orElse(all));
        // An MPIJob's launcher: this machine has no mpirun (nor workers to ssh into). The processes
        // mpirun would start, one per slot (-np), each with OpenMPI's ranks mapped to RANK,
        // WORLD_SIZE, LOCAL_RANK and LOCAL_WORLD_SIZE and MASTER_ADDR/MASTER_PORT the first worker's,
        // are started by one standalone torchrun instead, which gives each process those variables.
        Optional<List<String>> mpiProcess = MpiJobManifest.processCommand(all);
        if (mpiProcess.isPresent()) {
            List<String> torchrun = new ArrayList<>(
                    List.of("torchrun", "--nproc-per-node=" + MpiJobManifest.processes(all), "--no-python"));
            torchrun.addAll(mpiProcess.get());
            all = torchrun;
            completions = 1;
        }
        if (all.isEmpty()) {
            throw new IllegalArgumentException(
                    "the container has no command: the process runtime cannot run an image's entry point");
        }
        List<String> local = new ArrayList<>();
        String program = all.getFirst();
        int at = 1;
        if (program.equals("torchrun") || program.endsWith("/torchrun")) {
            local.addAll(python.torchrun());
            int procsPerNode = 1;
            List<String> kept = new ArrayList<>();
            while (at < all.size() && all.get(at).startsWith("-")) {
                String option = all.get(at);
                String optionName = option.contains("=") ? option.substring(0, option.indexOf('=')) : option;
                String value = null;
                if (option.contains("=")) {
                    value = option.substring(option.indexOf('=') + 1);
                } else if (!TORCHRUN_FLAGS.contains(option) && at + 1 < all.size()) {
                    value = all.get(++at);
                }
                at++;
                if (optionName.equals("--nproc-per-node") || optionName.equals("--nproc_per_node")) {
                    procsPerNode = value == null || !value.matches("\\d+") ? 1 : Integer.parseInt(value);
                }
                if (!TORCHRUN_TOPOLOGY.contains(optionName)) {
                    kept.add(value == null ? option : optionName + "=" + value);
                }
            }
            local.addAll(List.of("--standalone", "--nnodes=1", "--nproc-per-node=" + completions * procsPerNode));
            local.addAll(kept);
            // Under --no-python torchrun runs the program as given: python is this machine's.
            if (kept.contains("--no-python") && at < all.size() && isPython(all.get(at))) {
                local.add(python.python().toString());
                at++;
            }
        } else if (isPython(program)) {
            local.add(python.python().toString());
        } else {
            local.add(program);
        }
        for (; at < all.size(); at++) {
            String arg = all.get(at);
            // A shell's script (sh -c): the termination log it writes to is the pod's file here.
            boolean script = at > 0 && all.get(at - 1).equals("-c") && !isPython(local.getFirst());
            local.add(
                    script ? arg.replace("/dev/termination-log", termination.toString()) : mapPaths(arg, termination));
        }
        return local;
    }

    private static boolean isPython(String program) {
        return Set.of("python", "python3").contains(program) || program.matches(".*/python3?(\\.\\d+)?");
    }

    private String mapPaths(String argument, Path termination) {
        int equals = argument.startsWith("-") ? argument.indexOf('=') : -1;
        if (equals > 0) {
            return argument.substring(0, equals + 1) + mapPaths(argument.substring(equals + 1), termination);
        }
        if (argument.equals("/dev/termination-log")) {
            return termination.toString();
        }
        for (Map.Entry<String, Path> mount : Map.of(
                        "/workload", scripts, "/shared", shared, WorkloadManifests.BUILTIN_DIR, builtin)
                .entrySet()) {
            if (argument.equals(mount.getKey()) || argument.startsWith(mount.getKey() + "/")) {
                return mount.getValue() + argument.substring(mount.getKey().length());
            }
        }
        return argument;
    }

    private static String message(Running process, int exit) {
        try {
            String message = Files.readString(process.termination);
            if (message.isBlank() && exit != 0 && "FallbackToLogsOnError".equals(process.policy)) {
                message = tail(Files.readString(process.log), 80, 2048);
            }
            if (message.length() > MESSAGE_LIMIT) {
                message = message.substring(message.length() - MESSAGE_LIMIT);
            }
            return message.isBlank() ? null : message;
        } catch (IOException e) {
            return null;
        }
    }

    static String tail(String log, int lines, int chars) {
        List<String> all = log.lines().toList();
        String tail = String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        return tail.length() > chars ? tail.substring(tail.length() - chars) : tail;
    }

    /** Ends whatever still runs (with its child processes) and removes the work directory unless kept. */
    @Override
    public synchronized void close() {
        for (Running running : processes.values()) {
            running.process.descendants().forEach(ProcessHandle::destroyForcibly);
            running.process.destroyForcibly();
        }
        for (Running running : processes.values()) {
            try {
                running.process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        processes.clear();
        if (!keep) {
            try (Stream<Path> files = Files.walk(root)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                // a leftover temporary directory is harmless
            }
        }
    }
}
