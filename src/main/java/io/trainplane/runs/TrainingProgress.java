package io.trainplane.runs;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * How far the training is, from the newest {@code epoch N/M loss X} line of its first pod's log
 * (docs/workload-contract.md): {@code epoch} of {@code epochs} done, the loss then, when CheckTraining
 * read it ({@code at}) and when the pod that prints it started training ({@code since}).
 */
public record TrainingProgress(int epoch, int epochs, double loss, Instant at, Instant since) {
    public TrainingProgress {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(since, "since");
        if (epoch < 0 || epochs <= 0 || epoch > epochs) {
            throw new IllegalArgumentException("training progress: epoch " + epoch + " of " + epochs);
        }
        if (!Double.isFinite(loss)) {
            throw new IllegalArgumentException("training progress: the loss is not finite: " + loss);
        }
    }

    /**
     * The training time left, estimated from the epochs so far: the time they took (since the pod
     * started) over the epochs done, times the epochs left. Empty before the first epoch.
     */
    public Optional<Duration> eta() {
        if (epoch <= 0 || !since.isBefore(at)) {
            return Optional.empty();
        }
        return Optional.of(Duration.between(since, at).dividedBy(epoch).multipliedBy(epochs - epoch));
    }
}
