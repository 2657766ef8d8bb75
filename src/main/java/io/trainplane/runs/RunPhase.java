package io.trainplane.runs;

import java.util.Arrays;
import java.util.Locale;

/**
 * Where in the pipeline a run is (DESIGN §2), as the record stores it: the phase's name in lower
 * case ({@code cluster}, {@code train}, …), which is also how the CLI shows it.
 */
public enum RunPhase {
    /** StartRun created the record. */
    START,
    /** CreateCluster asked for the cluster's log group, and so for the cluster. */
    CLUSTER,
    /** StartDataJob started the data job. */
    DATA,
    /** StartTraining started the training. */
    TRAIN,
    /** StartEvaluation started the evaluation. */
    EVALUATE,
    /** Teardown started deleting what the run created. */
    CLEANUP;

    /** The stored name: {@code cluster}, {@code train}, … */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The phase stored as {@code label}. */
    public static RunPhase ofLabel(String label) {
        return Arrays.stream(values())
                .filter(p -> p.label().equals(label))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no run phase '" + label + "'; phases are "
                        + Arrays.stream(values()).map(RunPhase::label).toList()));
    }
}
