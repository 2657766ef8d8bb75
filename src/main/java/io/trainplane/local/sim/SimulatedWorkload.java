package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.trainplane.kubernetes.JobPods;
import io.trainplane.kubernetes.PyTorchJobs;
import io.trainplane.kubernetes.WorkloadManifests;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The default workload's pods, simulated: training takes {@link #EPOCH} per epoch and prints
 * train.py's progress lines, evaluation reports an accuracy that follows a plausible learning curve
 * of the epochs trained (not a real measurement: the process runtime runs the real scripts). A
 * {@link ClusterFault}, when armed, makes the pods fail the way a real cluster shows it.
 */
public final class SimulatedWorkload implements PodBehaviour {
    static final Duration EPOCH = Duration.ofSeconds(30);
    static final Duration EVALUATION = Duration.ofSeconds(40);
    static final Duration OTHER = Duration.ofSeconds(60);
    /**
     * The built-in prepare.py generating its synthetic data set (2,000 samples): 0.6 s on a 2-core
     * machine ({@code time python3 prepare.py --data-dir D --source synthetic}); 5 s allows for a
     * cold interpreter and the writes to EFS. A download ({@code url}, {@code s3}) takes {@link #OTHER}.
     */
    static final Duration SYNTHETIC_DATA = Duration.ofSeconds(5);
    /** How long a crashing training runs before its traceback: imports, then the error. */
    static final Duration CRASH_AFTER = Duration.ofSeconds(20);

    static final Duration DELETED_AFTER = Duration.ofMinutes(1);
    static final double LOW_ACCURACY = 0.12;

    /** How long copying the outputs takes. */
    static final Duration OUTPUTS = Duration.ofSeconds(20);

    private final Duration perEpoch;
    private final boolean printsProgress;

    private volatile ClusterFault fault;
    /** The account's S3 as the run's pods reach it; null: the pods have no credentials. */
    private volatile PodS3 s3;
    /** Each outputs pod's outcome (by uid), once it has copied: a pod copies once. */
    private final java.util.Map<String, Outcome> copied = new java.util.concurrent.ConcurrentHashMap<>();

    /** Each data pod's fetch of training.resumeFrom (by uid): its failure, or empty once fetched. */
    private final java.util.Map<String, Optional<InitFailure>> fetches = new java.util.concurrent.ConcurrentHashMap<>();
    /** The epoch each run's volume (by namespace) holds a fetched checkpoint of: the training resumes there. */
    private final java.util.Map<String, Integer> resumedEpochs = new java.util.concurrent.ConcurrentHashMap<>();

    /** The metrics each run's evaluation wrote to its volume (by namespace). */
    private final java.util.Map<String, String> evaluations = new java.util.concurrent.ConcurrentHashMap<>();

    /** How long fetching a checkpoint takes. */
    static final Duration FETCH = Duration.ofSeconds(10);

    public SimulatedWorkload() {
        this(EPOCH, true);
    }

    /**
     * A training of {@code perEpoch} per epoch (a week fits in the spec's 1,000 epochs) that prints
     * train.py's {@code epoch N/M} lines or, as code of one's own may, nothing to read its progress from.
     */
    public SimulatedWorkload(Duration perEpoch, boolean printsProgress) {
        this.perEpoch = perEpoch;
        this.printsProgress = printsProgress;
    }

    /** The S3 the outputs pods write to, with their pod identity. */
    public SimulatedWorkload storingOutputsIn(PodS3 s3) {
        this.s3 = s3;
        return this;
    }

    /** Arms a fault for the pods created from now on (null: none). */
    public void inject(ClusterFault fault) {
        this.fault = fault;
    }

    @Override
    public Outcome outcome(Job job, Pod pod, KubernetesClient client) {
        // A script that a stock image does not have, on no volume: python fails as on EKS.
        Optional<Outcome> missing =
                StockImages.missingScript(pod.getSpec().getContainers().getFirst());
        if (missing.isPresent()) {
            return missing.get();
        }
        String component = component(job);
        return switch (component) {
            case "training" -> training(job);
            case "evaluation" -> {
                String metrics = metrics(
                        fault == ClusterFault.LOW_ACCURACY ? LOW_ACCURACY : accuracyAfter(trainedEpochs(job, client)));
                // evaluate.py writes them beside the model too (eval-metrics.json on the run's volume),
                // where the outputs Job finds them after the evaluation's pod has gone with its node.
                evaluations.put(job.getMetadata().getNamespace(), metrics);
                yield new Outcome(EVALUATION, 0, metrics);
            }
            case "data" ->
                fault == ClusterFault.BAD_CHECKSUM
                        ? new Outcome(
                                Duration.ofSeconds(20),
                                3,
                                "CHECKSUM MISMATCH expected " + argument(job, "--sha256")
                                        + " got 0000000000000000000000000000000000000000000000000000000000000000 for "
                                        + argument(job, "--url"))
                        : new Outcome("synthetic".equals(argument(job, "--source")) ? SYNTHETIC_DATA : OTHER, 0, null);
            default -> new Outcome(OTHER, 0, null);
        };
    }

    /**
     * The data pod's fetch-checkpoint init container, once: the checkpoint got from S3 as the pod
     * and verified ({@link PodS3#fetchCheckpoint}) is on the run's volume, its epoch remembered for
     * the training; a failed get or a mismatch fails the init container with the CLI's code and words.
     */
    @Override
    public Optional<InitFailure> initFailure(Job job, Pod pod, KubernetesClient client) {
        return fetches.computeIfAbsent(pod.getMetadata().getUid(), uid -> {
            PodS3 store = s3;
            if (store == null) {
                return Optional.of(new InitFailure(
                        pod.getSpec().getInitContainers().getFirst().getName(),
                        new Outcome(FETCH, 255, PodS3.NO_CREDENTIALS)));
            }
            if (PodBehaviour.hasInit(pod, WorkloadManifests.FETCH_CODE)) {
                try {
                    store.fetchCode(pod);
                } catch (PodS3.AwsCliFailed e) {
                    return Optional.of(new InitFailure(
                            WorkloadManifests.FETCH_CODE, new Outcome(FETCH, e.exitCode(), e.getMessage())));
                }
            }
            if (PodBehaviour.hasInit(pod, WorkloadManifests.FETCH_CHECKPOINT)) {
                try {
                    var fetched = store.fetchCheckpoint(pod);
                    resumedEpochs.put(pod.getMetadata().getNamespace(), fetched.epoch());
                } catch (PodS3.AwsCliFailed e) {
                    return Optional.of(new InitFailure(
                            WorkloadManifests.FETCH_CHECKPOINT, new Outcome(FETCH, e.exitCode(), e.getMessage())));
                }
            }
            if (PodBehaviour.hasInit(pod, io.trainplane.kubernetes.SecretFetch.CONTAINER)) {
                try {
                    // Read as the pod would, and dropped: the simulated workload runs no code that uses them.
                    store.fetchSecrets(pod);
                } catch (PodS3.AwsCliFailed e) {
                    return Optional.of(new InitFailure(
                            io.trainplane.kubernetes.SecretFetch.CONTAINER,
                            new Outcome(FETCH, e.exitCode(), e.getMessage())));
                }
            }
            return Optional.empty();
        });
    }

    /**
     * An uninterrupted training: the epochs left after the checkpoint the data pod fetched, if any
     * (train.py resumes from it), saying so in its termination message as after an interruption.
     */
    private Outcome training(Job job) {
        int from = resumedEpoch(job);
        int left = Math.max(0, epochs(job) - from);
        return new Outcome(
                left == 0 ? FETCH : perEpoch.multipliedBy(left),
                0,
                from == 0 ? null : String.format(Locale.ROOT, "{\"restarts\": 0, \"resumedFromEpoch\": %d}", from));
    }

    /** The epoch of the checkpoint the run's data pod fetched onto its volume, 0 for none. */
    private int resumedEpoch(Job job) {
        return resumedEpochs.getOrDefault(job.getMetadata().getNamespace(), 0);
    }

    /** The outputs pod copies when its time is up; the others' outcome is known from the start. */
    @Override
    public Optional<Outcome> poll(Job job, Pod pod, KubernetesClient client, Duration running) {
        if (!"outputs".equals(component(job))) {
            return Optional.of(outcome(job, pod, client));
        }
        if (running.compareTo(OUTPUTS) < 0) {
            return Optional.empty();
        }
        return Optional.of(copied.computeIfAbsent(pod.getMetadata().getUid(), uid -> copyOutputs(job, pod, client)));
    }

    /**
     * What the outputs Job's script does (WorkloadManifests#outputsJob), with the simulated
     * training's files: a model of plausible content (deterministic for the run and its epochs), the
     * training's and the evaluation's metrics, the last epoch's checkpoint and its digest, each put
     * into S3 as the pod (its Pod Identity role, IAM evaluated); the report carries the real SHA-256
     * of the model it wrote. No credentials, or a refused put, fails the pod with the CLI's message.
     */
    private Outcome copyOutputs(Job job, Pod pod, KubernetesClient client) {
        PodS3 store = s3;
        if (store == null) {
            return new Outcome(OUTPUTS, 255, PodS3.NO_CREDENTIALS);
        }
        var output = PodS3.destination(job);
        String runId = job.getMetadata().getNamespace();
        Integer stopped = stoppedAfter.get(runId);
        if (stopped != null && !PodBehaviour.modelOptional(job)) {
            return new Outcome(
                    OUTPUTS,
                    255,
                    "The user-provided path " + WorkloadManifests.SHARED_DIR + "/model/model.pt does not exist.");
        }
        int epochs = stopped != null ? stopped : trainedEpochs(job, client);
        String checkpoint = epochs == 0 ? "" : checkpointName(epochs);
        byte[] checkpointBytes = simulatedCheckpoint(runId, epochs);
        java.util.Map<String, byte[]> files = new java.util.LinkedHashMap<>();
        if (stopped == null) {
            // A stopped training wrote neither its model nor its metrics: train.py does at its end.
            files.put("model.pt", simulatedModel(runId, epochs));
            files.put("train-metrics.json", utf8("{\"epochs\": " + epochs + "}"));
        }
        Optional.ofNullable(evaluations.get(runId)).ifPresent(m -> files.put("eval-metrics.json", utf8(m)));
        if (epochs > 0) {
            files.put(checkpoint, checkpointBytes);
            files.put(checkpoint + ".sha256", utf8(sha256Hex(checkpointBytes) + "  " + checkpoint + "\n"));
        }
        String modelSha = null;
        try {
            for (var file : files.entrySet()) {
                var put = store.put(pod, output.bucket(), output.prefix() + file.getKey(), file.getValue());
                if (file.getKey().equals("model.pt")) {
                    modelSha = put.sha256Hex();
                }
            }
        } catch (PodS3.AwsCliFailed e) {
            return new Outcome(OUTPUTS, e.exitCode(), e.getMessage());
        }
        return new Outcome(
                OUTPUTS, 0, PodS3.report(output, modelSha, checkpoint, epochs == 0 ? "" : sha256Hex(checkpointBytes)));
    }

    /** Bytes standing for a trained model: deterministic for the run and its epochs, 64 KiB. */
    static byte[] simulatedModel(String runId, int epochs) {
        byte[] model = new byte[64 * 1024];
        byte[] seed = utf8("trainplane simulated model " + runId + " epochs " + epochs);
        for (int block = 0; block * 32 < model.length; block++) {
            byte[] digest = sha256(concat(seed, Integer.toString(block).getBytes(StandardCharsets.US_ASCII)));
            System.arraycopy(digest, 0, model, block * 32, Math.min(32, model.length - block * 32));
        }
        return model;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String sha256Hex(byte[] bytes) {
        return java.util.HexFormat.of().formatHex(sha256(bytes));
    }

    /**
     * A training pod of an Indexed Job (restartPolicy Never) under {@link ClusterFault#CRASH_LOOP}
     * crashes once; after interruptions ({@link ClusterFault#NODE_LOST}, {@link
     * ClusterFault#SPOT_INTERRUPTION}) the training ends when the last resumed one has done the
     * epochs left ({@link #timeline}), and says how it resumed in its termination message.
     */
    @Override
    public Optional<Outcome> poll(Job job, Pod pod, List<Pod> siblings, KubernetesClient client, Duration running) {
        if (!"training".equals(component(job))) {
            return poll(job, pod, client, running);
        }
        if (crashesOnce(pod)) {
            // torchrun starts the crashing workers again while --max-restarts allows; the pod fails after the last.
            int attempts = torchrunRestarts(pod) + 1;
            return Optional.of(
                    new Outcome(CRASH_AFTER.multipliedBy(attempts), 1, FaultyPods.crash(attempts, attempts)));
        }
        syncCheckpoints(
                job,
                pod,
                siblings,
                Instant.parse(pod.getStatus().getStartTime()).plus(running));
        Instant started = Instant.parse(pod.getStatus().getStartTime());
        if (JobPods.interrupted(siblings).isEmpty()) {
            // The workers train together from when the last of them started.
            Optional<Instant> together = Rendezvous.complete(job, siblings);
            if (together.isEmpty()) {
                return Rendezvous.timedOut(running);
            }
            Duration waited = Duration.between(started, together.get());
            return poll(job, pod, client, running)
                    .map(o -> new Outcome(o.runtime().plus(waited), o.exitCode(), o.terminationMessage()));
        }
        return timeline(job, siblings, resumedEpoch(job))
                .map(t -> new Outcome(
                        Duration.between(started, t.end()),
                        0,
                        String.format(
                                Locale.ROOT,
                                "{\"restarts\": %d, \"resumedFromEpoch\": %d}",
                                t.restarts(),
                                t.resumedFromEpoch())));
    }

    /** The epochs each run's training (by namespace) had done when its pods were deleted (its Job suspended). */
    private final java.util.Map<String, Integer> stoppedAfter = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * A training pod deleted while it runs (its Job suspended: the run's budget): train.py writes the
     * checkpoint of the epochs done on SIGTERM and the sidecar syncs it; the model is never written.
     * Lenient: the checkpoint is of the last whole epoch, where train.py's is of the step it was in.
     */
    @Override
    public void terminate(Job job, Pod pod, Instant now) {
        if (!"training".equals(component(job))) {
            return;
        }
        syncCheckpoints(job, pod, List.of(pod), now);
        stoppedAfter.putIfAbsent(
                job.getMetadata().getNamespace(),
                Math.min(epochs(job), resumedEpoch(job) + epochsDone(job, List.of(pod), now)));
    }

    /** The checkpoints each run's sidecar has put into S3 (by namespace), epoch numbers. */
    private final java.util.Map<String, java.util.Set<Integer>> synced = new java.util.concurrent.ConcurrentHashMap<>();
    /** Why a pod's sidecar could not sync (by pod uid): the CLI's error. */
    private final java.util.Map<String, String> syncFailures = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * What the checkpoint sidecar of {@code pod} does (WorkloadManifests#checkpointSyncScript): the
     * pod that has it, of index 0, puts each epoch's checkpoint and its digest under {@code
     * output.s3Uri}checkpoints/ as the pod (Pod Identity, IAM evaluated), once the training has
     * written it by {@code now}. Lenient: a checkpoint reaches S3 when written, not at the next
     * minute's sync; a sync the controller's polls missed (a pod lost in between) is made up by
     * the replacement's sidecar.
     */
    private void syncCheckpoints(Job job, Pod pod, List<Pod> siblings, Instant now) {
        if (!JobPods.syncsCheckpoints(pod) || JobController.index(pod) != 0) {
            return;
        }
        PodS3 store = s3;
        if (store == null) {
            syncFailures.put(pod.getMetadata().getUid(), PodS3.NO_CREDENTIALS);
            return;
        }
        String runId = job.getMetadata().getNamespace();
        var done = synced.computeIfAbsent(runId, r -> java.util.concurrent.ConcurrentHashMap.newKeySet());
        // A resumed training (training.resumeFrom) writes the checkpoints after the one it fetched.
        int from = resumedEpoch(job);
        int written = Math.min(epochs(job), from + epochsDone(job, siblings, now));
        for (int epoch = from + 1; epoch <= written; epoch++) {
            if (done.contains(epoch)) {
                continue;
            }
            String name = checkpointName(epoch);
            byte[] bytes = simulatedCheckpoint(runId, epoch);
            try {
                store.putCheckpoint(pod, name, bytes, utf8(sha256Hex(bytes) + "  " + name + "\n"));
            } catch (PodS3.AwsCliFailed e) {
                syncFailures.put(pod.getMetadata().getUid(), e.getMessage());
                return;
            }
            done.add(epoch);
        }
    }

    @Override
    public Optional<String> sidecarFailure(Pod pod) {
        return Optional.ofNullable(syncFailures.get(pod.getMetadata().getUid()));
    }

    static String checkpointName(int epoch) {
        return "checkpoint-epoch-" + epoch + ".pt";
    }

    /** The bytes of the simulated training's checkpoint after {@code epoch}, the outputs Job's too. */
    static byte[] simulatedCheckpoint(String runId, int epoch) {
        return simulatedModel(runId + " checkpoint", epoch);
    }

    /**
     * The epochs whose checkpoint the training has written by {@code until}, along {@link
     * #timeline}'s course: from when the first workers all run, interruptions keep the epochs done
     * by then and the training goes on once their replacements run.
     */
    int epochsDone(Job job, List<Pod> pods, Instant until) {
        int epochs = epochs(job);
        java.util.TreeSet<Instant> strikes = new java.util.TreeSet<>();
        JobPods.interrupted(pods).stream()
                .map(SimulatedWorkload::interruptedAt)
                .filter(t -> !t.isAfter(until))
                .forEach(strikes::add);
        Instant first = strikes.isEmpty() ? until : strikes.first();
        Instant resumed = pods.stream()
                .filter(p -> !created(p).isAfter(first))
                .filter(p -> p.getStatus().getStartTime() != null)
                .map(p -> Instant.parse(p.getStatus().getStartTime()))
                .max(Instant::compareTo)
                .orElse(until);
        int epoch = 0;
        for (Instant strike : strikes) {
            epoch = (int) Math.min(
                    epochs,
                    epoch + Math.max(0, Duration.between(resumed, strike).dividedBy(perEpoch)));
            Optional<Instant> next = pods.stream()
                    .filter(p -> !created(p).isBefore(strike) && p.getStatus().getStartTime() != null)
                    .map(p -> Instant.parse(p.getStatus().getStartTime()))
                    .max(Instant::compareTo);
            if (next.isEmpty()) {
                return epoch;
            }
            resumed = next.get();
        }
        return (int) Math.min(
                epochs, epoch + Math.max(0, Duration.between(resumed, until).dividedBy(perEpoch)));
    }

    /**
     * Half-way through the epoch after {@code afterEpochs}, when the training lasts that long; a
     * training that resumed past them (training.resumeFrom) is struck in its first epoch.
     */
    @Override
    public Optional<Instant> interruption(Job training, Instant started, int afterEpochs, Instant now) {
        int from = resumedEpoch(training);
        Instant strike = started.plus(perEpoch.multipliedBy(Math.max(0, afterEpochs - from)))
                .plus(perEpoch.dividedBy(2));
        Instant end = started.plus(perEpoch.multipliedBy(epochs(training) - from));
        return now.isBefore(strike) || !strike.isBefore(end) ? Optional.empty() : Optional.of(strike);
    }

    /** When an interrupted training ends, how often it restarted and from which epoch it resumed last. */
    record Timeline(Instant end, int restarts, int resumedFromEpoch) {}

    /**
     * The training's course through its interruptions: the workers train together from when the
     * last of them started; an interruption at T keeps the epochs completed by T (train.py writes a
     * checkpoint after each), and they resume from there once the replacement pod of every index
     * lost at T runs (torchrun's rendezvous waits for it). The first start begins at {@code fromEpoch}
     * (a fetched training.resumeFrom). Empty while a replacement has not started.
     */
    Optional<Timeline> timeline(Job job, List<Pod> pods, int fromEpoch) {
        int epochs = epochs(job);
        List<Pod> interrupted = JobPods.interrupted(pods);
        java.util.TreeMap<Instant, List<Pod>> byTime = new java.util.TreeMap<>();
        for (Pod pod : interrupted) {
            byTime.computeIfAbsent(interruptedAt(pod), t -> new java.util.ArrayList<>())
                    .add(pod);
        }
        Instant first = byTime.firstKey();
        Instant resumed = pods.stream()
                .filter(p -> created(p).isBefore(first))
                .filter(p -> p.getStatus().getStartTime() != null)
                .map(p -> Instant.parse(p.getStatus().getStartTime()))
                .max(Instant::compareTo)
                .orElse(first);
        int epoch = fromEpoch;
        for (var at : byTime.entrySet()) {
            long done = Duration.between(resumed, at.getKey()).dividedBy(perEpoch);
            epoch = (int) Math.min(epochs, epoch + Math.max(0, done));
            Instant next = null;
            for (Pod lost : at.getValue()) {
                Optional<Instant> replacementStart = pods.stream()
                        .filter(p -> p != lost
                                && slot(p).equals(slot(lost))
                                && !created(p).isBefore(at.getKey()))
                        .min(java.util.Comparator.comparing(SimulatedWorkload::created))
                        .map(p -> p.getStatus().getStartTime())
                        .map(Instant::parse);
                if (replacementStart.isEmpty()) {
                    return Optional.empty();
                }
                next = next == null || replacementStart.get().isAfter(next) ? replacementStart.get() : next;
            }
            resumed = next;
        }
        return Optional.of(new Timeline(resumed.plus(perEpoch.multipliedBy(epochs - epoch)), byTime.size(), epoch));
    }

    /** Which pod a replacement stands in for: an Indexed Job's completion index, a PyTorchJob's replica type and index. */
    private static String slot(Pod pod) {
        String type = pod.getMetadata().getLabels().get(PyTorchJobs.REPLICA_TYPE_LABEL);
        return type == null
                ? Integer.toString(JobController.index(pod))
                : type + "-" + PyTorchJobController.replicaIndex(pod);
    }

    private static Instant interruptedAt(Pod pod) {
        return pod.getStatus().getConditions().stream()
                .filter(c -> JobPods.DISRUPTION_TARGET.equals(c.getType()))
                .map(c -> Instant.parse(c.getLastTransitionTime()))
                .findFirst()
                .orElseThrow();
    }

    private static Instant created(Pod pod) {
        return Instant.parse(pod.getMetadata().getAnnotations().get("trainplane.local/created"));
    }

    /**
     * How many times torchrun starts a pod's failed workers again: its {@code --max-restarts}, or
     * {@code PET_MAX_RESTARTS} (torchrun reads its options from {@code PET_*} variables too); 0 when neither.
     */
    static int torchrunRestarts(Pod pod) {
        for (var c : pod.getSpec().getContainers()) {
            for (List<String> words : java.util.Arrays.asList(c.getCommand(), c.getArgs())) {
                if (words == null) {
                    continue;
                }
                for (String word : words) {
                    if (word.startsWith("--max-restarts=") || word.startsWith("--max_restarts=")) {
                        return Integer.parseInt(word.substring(word.indexOf('=') + 1));
                    }
                }
            }
            if (c.getEnv() != null) {
                for (var e : c.getEnv()) {
                    if ("PET_MAX_RESTARTS".equals(e.getName()) && e.getValue() != null) {
                        return Integer.parseInt(e.getValue());
                    }
                }
            }
        }
        return 0;
    }

    /** A pod whose containers are not restarted (restartPolicy Never) ends with the crash instead of looping. */
    private boolean crashesOnce(Pod pod) {
        return fault == ClusterFault.CRASH_LOOP && "Never".equals(pod.getSpec().getRestartPolicy());
    }

    /**
     * A training pod prints what train.py prints after each epoch: {@code epoch N/M loss L}, its
     * last lines (nothing when it does not print its progress).
     */
    @Override
    public Optional<String> log(Job job, Pod pod, Instant now) {
        if (!"training".equals(component(job))
                || pod.getStatus() == null
                || pod.getStatus().getStartTime() == null) {
            return Optional.empty();
        }
        if (crashesOnce(pod)) {
            int attempts = torchrunRestarts(pod) + 1;
            if (attempts == 1) {
                return Optional.of(FaultyPods.CRASH + "\n");
            }
            long failed = Duration.between(Instant.parse(pod.getStatus().getStartTime()), now)
                    .dividedBy(CRASH_AFTER);
            String log = FaultyPods.crash(attempts, (int) Math.min(attempts, failed));
            return log.isEmpty() ? Optional.empty() : Optional.of(log);
        }
        if (!printsProgress) {
            return Optional.empty();
        }
        int epochs = epochs(job);
        Duration running = Duration.between(Instant.parse(pod.getStatus().getStartTime()), now);
        long done = Math.min(epochs, Math.max(0, running.dividedBy(perEpoch)));
        StringBuilder log = new StringBuilder();
        for (long epoch = Math.max(1, done - 9); epoch <= done; epoch++) {
            log.append(String.format(
                    java.util.Locale.ROOT, "epoch %d/%d loss %.4f%n", epoch, epochs, 2.3 * Math.exp(-epoch / 5.0)));
        }
        return log.isEmpty() ? Optional.empty() : Optional.of(log.toString());
    }

    @Override
    public Optional<PodStatus> stuck(Job job, Pod pod, Instant created) {
        if (fault == null || !"training".equals(component(job))) {
            return Optional.empty();
        }
        return switch (fault) {
            case IMAGE_PULL -> Optional.of(FaultyPods.imagePullBackOff(pod, created));
            // An MPIJob's workers run sshd, not the training: the crash is the launcher's mpirun's.
            case CRASH_LOOP ->
                crashesOnce(pod)
                                || MpiJobController.WORKER.equals(pod.getMetadata()
                                        .getLabels()
                                        .get(io.trainplane.kubernetes.MpiJobs.JOB_ROLE_LABEL))
                        ? Optional.empty()
                        : Optional.of(FaultyPods.crashLoopBackOff(pod, created));
            default -> Optional.empty();
        };
    }

    @Override
    public boolean deletedBySomeone(Job job, Instant now) {
        if (fault != ClusterFault.JOB_DELETED
                || !"training".equals(component(job))
                || job.getStatus() == null
                || job.getStatus().getStartTime() == null) {
            return false;
        }
        return !now.isBefore(Instant.parse(job.getStatus().getStartTime()).plus(DELETED_AFTER));
    }

    /**
     * Test accuracy of a ResNet on CIFAR-10 after {@code epochs}: chance (0.10) at the start, rising
     * to the low 0.90s that such a model reaches in a few dozen epochs (about 0.73 after 10, 0.92
     * after 30), so the GPU examples' gates (0.80, 0.85) are met as a real training would meet them.
     */
    static double accuracyAfter(int epochs) {
        return 0.10 + 0.83 * (1 - Math.exp(-epochs / 7.0));
    }

    /** The Job's component; an MPIJob's launcher Job has only the operator's labels, its pods the template's. */
    private static String component(Job job) {
        String own = job.getMetadata().getLabels() == null
                ? null
                : job.getMetadata().getLabels().get(WorkloadManifests.COMPONENT);
        if (own != null) {
            return own;
        }
        var template = job.getSpec() == null || job.getSpec().getTemplate() == null
                ? null
                : job.getSpec().getTemplate().getMetadata();
        return template == null || template.getLabels() == null
                ? ""
                : template.getLabels().getOrDefault(WorkloadManifests.COMPONENT, "");
    }

    /** The metrics the simulated evaluation reports: a model of the built-in CIFAR-10 one. */
    public static final java.util.Set<String> REPORTED_METRICS = java.util.Set.of("accuracy", "samples", "simulated");

    private static String metrics(double accuracy) {
        return String.format(Locale.ROOT, "{\"accuracy\": %.4f, \"samples\": 10000, \"simulated\": 1}", accuracy);
    }

    private static int trainedEpochs(Job evaluation, KubernetesClient client) {
        String ns = evaluation.getMetadata().getNamespace();
        return client
                .batch()
                .v1()
                .jobs()
                .inNamespace(ns)
                .withLabel(WorkloadManifests.COMPONENT, "training")
                .list()
                .getItems()
                .stream()
                .findFirst()
                .or(() -> mpiJob(client, ns))
                .or(() -> client
                        .genericKubernetesResources(PyTorchJobs.CONTEXT)
                        .inNamespace(ns)
                        .withLabel(WorkloadManifests.COMPONENT, "training")
                        .list()
                        .getItems()
                        .stream()
                        .findFirst()
                        .map(PyTorchJobController::asJob))
                .map(SimulatedWorkload::epochs)
                .orElse(0);
    }

    /** The run's MPIJob as a Job of its launcher's template, whose mpirun has the training's arguments. */
    private static Optional<Job> mpiJob(KubernetesClient client, String ns) {
        try {
            return client
                    .genericKubernetesResources(io.trainplane.kubernetes.MpiJobs.CONTEXT)
                    .inNamespace(ns)
                    .withLabel(WorkloadManifests.COMPONENT, "training")
                    .list()
                    .getItems()
                    .stream()
                    .findFirst()
                    .map(job -> MpiJobController.asJob(job, "Launcher"));
        } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
            return Optional.empty(); // no MPIJob CRD on this cluster
        }
    }

    static int epochs(Job training) {
        String epochs = argument(training, "--epochs");
        return epochs == null ? 1 : Integer.parseInt(epochs);
    }

    private static String argument(Job job, String flag) {
        List<String> command =
                job.getSpec().getTemplate().getSpec().getContainers().get(0).getCommand();
        int at = command.indexOf(flag);
        return at < 0 || at + 1 >= command.size() ? null : command.get(at + 1);
    }
}
