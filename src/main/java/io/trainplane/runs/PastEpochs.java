package io.trainplane.runs;

import io.trainplane.spec.RunSpec;
import io.trainplane.spec.RunSpecs;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The seconds per epoch of the earlier runs of a spec: what {@code plan} learns a workload's
 * epoch time from when the spec does not state it. Runs are the same spec when their specs are
 * equal but for the runId and training.secondsPerEpoch ({@link SpecHash#ofWork}).
 */
@FunctionalInterface
public interface PastEpochs {
    /** The mean seconds per epoch of the earlier SUCCEEDED runs of {@code spec}'s work, and how many. */
    Optional<Learned> of(RunSpec spec);

    record Learned(double meanSeconds, int runs) {}

    /** No earlier runs at hand (plan without a store). */
    PastEpochs NONE = spec -> Optional.empty();

    /** The workflow's states that start and follow the training (workflow's Pipeline names them the same). */
    String START_TRAINING = "StartTraining";

    String CHECK_TRAINING = "CheckTraining";

    /** How many SUCCEEDED runs, newest first, are looked at. */
    int LOOK_BACK = 100;

    /** The earlier runs of {@code store}. */
    static PastEpochs of(RunStore store) {
        return spec -> {
            String work = SpecHash.ofWork(spec);
            List<Double> seconds = store.listByStatus(RunStatus.SUCCEEDED, LOOK_BACK).stream()
                    .map(summary -> store.find(summary.runId()))
                    .flatMap(Optional::stream)
                    .filter(run -> SpecHash.ofWork(RunSpecs.fromNormalized(run.specJson()))
                            .equals(work))
                    .map(run -> secondsPerEpoch(RunSpecs.fromNormalized(run.specJson()), store.steps(run.runId())))
                    .flatMap(Optional::stream)
                    .toList();
            return seconds.isEmpty()
                    ? Optional.empty()
                    : Optional.of(new Learned(
                            seconds.stream()
                                    .mapToDouble(Double::doubleValue)
                                    .average()
                                    .orElseThrow(),
                            seconds.size()));
        };
    }

    /**
     * A run's training phase per epoch: its training's seconds ({@link #trainingSeconds}) over the
     * epochs it trained; empty when its timeline has no training.
     */
    static Optional<Double> secondsPerEpoch(RunSpec spec, List<StepEntry> steps) {
        int epochs = spec.workload().epochs(spec.training().epochs());
        return epochs <= 0 ? Optional.empty() : trainingSeconds(steps).map(seconds -> seconds / epochs);
    }

    /**
     * How long a run's training went: from the start of its first StartTraining to the end of its
     * last CheckTraining; empty when its timeline has no ended training.
     */
    static Optional<Double> trainingSeconds(List<StepEntry> steps) {
        Optional<Instant> started = steps.stream()
                .filter(s -> s.state().equals(START_TRAINING))
                .map(StepEntry::started)
                .min(Instant::compareTo);
        Optional<Instant> ended = steps.stream()
                .filter(s -> s.state().equals(CHECK_TRAINING) && s.ended() != null)
                .map(StepEntry::ended)
                .max(Instant::compareTo);
        if (started.isEmpty() || ended.isEmpty() || !ended.get().isAfter(started.get())) {
            return Optional.empty();
        }
        return Optional.of(Duration.between(started.get(), ended.get()).toMillis() / 1000.0);
    }
}
