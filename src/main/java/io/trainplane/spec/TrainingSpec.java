package io.trainplane.spec;

import java.util.Objects;

/**
 * The distributed training job: {@code workers} pods, each running {@code procsPerWorker}
 * processes under torchrun. {@code cpu} and {@code memory} are Kubernetes quantities.
 * {@code maxRestarts} is torchrun's --max-restarts; {@code maxInterruptions} how many pods the
 * training may lose to their nodes (resumed from the newest checkpoint) before the run fails.
 * {@code resumeFrom} (null: from scratch) is the checkpoint to start from: a run ID or an s3:// URI
 * as given, the URI once StartRun resolved it ({@link CheckpointUri}). {@code secondsPerEpoch}
 * (null: not given) is the user's estimate of an epoch's duration, which {@code plan} prices the
 * training with.
 */
public record TrainingSpec(
        Launcher launcher,
        String image,
        int workers,
        int procsPerWorker,
        int epochs,
        int batchSize,
        double learningRate,
        String cpu,
        String memory,
        int gpusPerWorker,
        int maxRestarts,
        int maxInterruptions,
        int timeoutMinutes,
        String resumeFrom,
        Double secondsPerEpoch) {
    /**
     * What the checkpoint sidecar beside each training container asks for: a native sidecar's
     * requests add to its pod's (https://kubernetes.io/docs/concepts/workloads/pods/sidecar-containers/#resource-sharing-within-containers),
     * so a worker must fit on its node with them.
     */
    public static final String CHECKPOINT_SYNC_CPU = "50m";

    public static final String CHECKPOINT_SYNC_MEMORY = "128Mi";

    /** A training job without an estimate of its epochs' duration. */
    public TrainingSpec(
            Launcher launcher,
            String image,
            int workers,
            int procsPerWorker,
            int epochs,
            int batchSize,
            double learningRate,
            String cpu,
            String memory,
            int gpusPerWorker,
            int maxRestarts,
            int maxInterruptions,
            int timeoutMinutes,
            String resumeFrom) {
        this(
                launcher,
                image,
                workers,
                procsPerWorker,
                epochs,
                batchSize,
                learningRate,
                cpu,
                memory,
                gpusPerWorker,
                maxRestarts,
                maxInterruptions,
                timeoutMinutes,
                resumeFrom,
                null);
    }

    public TrainingSpec {
        Objects.requireNonNull(launcher, "launcher");
        Objects.requireNonNull(image, "image");
        Objects.requireNonNull(cpu, "cpu");
        Objects.requireNonNull(memory, "memory");
    }

    /** Number of training processes of the job (torchrun's world size). */
    public int worldSize() {
        return workers * procsPerWorker;
    }
}
