package io.trainplane.spec;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * The quality gate: the run fails when the evaluation's {@code metric} (a key of its metrics JSON)
 * is below {@code min} or above {@code max}. Without either bound there is no gate, but the metric
 * must still be reported. {@code evaluation.minAccuracy: X} in a spec is the shorthand of metric
 * {@code accuracy} with min X (0: no gate).
 */
public record EvaluationSpec(String metric, Double min, Double max) {
    public static final String DEFAULT_METRIC = "accuracy";

    public EvaluationSpec {
        Objects.requireNonNull(metric, "evaluation.metric");
    }

    /** What {@code evaluation.minAccuracy} stands for; 0 (the old default) is no gate. */
    public static EvaluationSpec minAccuracy(double minimum) {
        return new EvaluationSpec(DEFAULT_METRIC, minimum > 0 ? minimum : null, null);
    }

    /** Whether the gate is on: a bound is set. */
    public boolean gated() {
        return min != null || max != null;
    }

    /** Whether {@code value} of the metric passes; NaN never does. */
    public boolean passes(double value) {
        if (Double.isNaN(value)) {
            return false;
        }
        return (min == null || value >= min) && (max == null || value <= max);
    }

    /** The gate in a few words, e.g. {@code perplexity ≤ 4} or {@code accuracy ≥ 0.6}; "none" without a bound. */
    public String describe() {
        if (!gated()) {
            return "none (" + metric + " is reported, no bound)";
        }
        StringBuilder line = new StringBuilder(metric);
        if (min != null) {
            line.append(" ≥ ").append(plain(min));
        }
        if (max != null) {
            line.append(min != null ? " and ≤ " : " ≤ ").append(plain(max));
        }
        return line.toString();
    }

    /**
     * Why {@code value} fails, naming the metric, the value and the bound it crosses, e.g.
     * {@code perplexity 5.2 is above evaluation.max 4}; empty when it passes.
     */
    public String failure(double value) {
        if (passes(value)) {
            return "";
        }
        if (Double.isNaN(value)) {
            return metric + " is not a number";
        }
        if (min != null && value < min) {
            return metric + " " + plain(value) + " is below evaluation.min " + plain(min)
                    + (DEFAULT_METRIC.equals(metric) && max == null ? " (evaluation.minAccuracy)" : "");
        }
        return metric + " " + plain(value) + " is above evaluation.max " + plain(max);
    }

    /** Plain notation without trailing zeros: 4.0 → 4, 1e-4 → 0.0001. */
    static String plain(double value) {
        return Double.isFinite(value)
                ? new BigDecimal(Double.toString(value)).stripTrailingZeros().toPlainString()
                : Double.toString(value);
    }
}
