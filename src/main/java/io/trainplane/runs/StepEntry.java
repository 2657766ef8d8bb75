package io.trainplane.runs;

import java.time.Instant;
import java.util.Objects;

/**
 * One entry of a run's timeline: a workflow state, when it started and ended, its outcome
 * (e.g. "succeeded", "failed", "retried") and a free-form detail. {@code ended}, {@code outcome}
 * and {@code detail} are null while the state is still running.
 */
public record StepEntry(String state, Instant started, Instant ended, String outcome, String detail) {
    public StepEntry {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(started, "started");
        if (state.isBlank()) {
            throw new IllegalArgumentException("step state must not be blank");
        }
    }

    /** A step that has started and not yet ended. */
    public static StepEntry started(String state, Instant started) {
        return new StepEntry(state, started, null, null, null);
    }

    public StepEntry ended(Instant ended, String outcome, String detail) {
        return new StepEntry(state, started, ended, outcome, detail);
    }
}
