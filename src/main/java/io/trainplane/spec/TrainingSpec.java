package io.trainplane.spec;

import java.util.Objects;

/**
 * The distributed training job: {@code workers} pods, each running {@code procsPerWorker}
 * processes under torchrun. {@code cpu} and {@code memory} are Kubernetes quantities.
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
        int timeoutMinutes) {
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
