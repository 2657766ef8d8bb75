package io.trainplane.runs;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Where in the pipeline a run is (DESIGN §2), in pipeline order: the one declaration of the phases,
 * shown by their name in lower case ({@code cluster}, {@code train}, …).
 *
 * <p>All of them are the phases a run's step timeline is cut into (workflow/PhaseTimeline). The run
 * record stores the coarser {@link #recorded()} ones: the volume and the outputs have phases of their
 * own only in the timeline (they take minutes on AWS), and the record stays in the phase before.
 */
public enum RunPhase {
    /** StartRun created the record. */
    START(true),
    /** CreateCluster asked for the cluster's log group, and so for the cluster. */
    CLUSTER(true),
    /** The wait for the run's file system (timeline only). */
    VOLUME(false),
    /** StartDataJob started the data job. */
    DATA(true),
    /** StartTraining started the training. */
    TRAIN(true),
    /** StartEvaluation started the evaluation. */
    EVALUATE(true),
    /** StartOutputs started copying the outputs (timeline only). */
    OUTPUTS(false),
    /** Teardown started deleting what the run created. */
    CLEANUP(true);

    private final boolean recorded;

    RunPhase(boolean recorded) {
        this.recorded = recorded;
    }

    /** The shown and stored name: {@code cluster}, {@code train}, … */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether the run record stores this phase (the others are only in the timeline). */
    public boolean isRecorded() {
        return recorded;
    }

    /** The phases the run record stores, in order. */
    public static List<RunPhase> recorded() {
        return Arrays.stream(values()).filter(RunPhase::isRecorded).toList();
    }

    /** Whether this phase comes after {@code current} in the pipeline; every phase comes after none. */
    public boolean isAfter(RunPhase current) {
        return current == null || compareTo(current) > 0;
    }

    /** The phase the record stores as {@code label}. */
    public static RunPhase ofLabel(String label) {
        return recorded().stream()
                .filter(p -> p.label().equals(label))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no run phase '" + label + "'; phases are "
                        + recorded().stream().map(RunPhase::label).toList()));
    }
}
