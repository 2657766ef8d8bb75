package io.trainplane.spec;

/** The quality gate: the run fails when the model's test accuracy is below {@code minAccuracy}. */
public record EvaluationSpec(double minAccuracy) {
    /** Whether the gate is on (a minimum of 0 accepts every model). */
    public boolean gated() {
        return minAccuracy > 0;
    }
}
