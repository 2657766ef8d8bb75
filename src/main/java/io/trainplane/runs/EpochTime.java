package io.trainplane.runs;

/**
 * How long one epoch of a run's training takes (the whole job), and where the figure comes from:
 * the spec ({@code training.secondsPerEpoch}), the earlier runs of the same spec, Trainplane's
 * figure for the built-in workload on the instance family, or a guess for a workload of the user's
 * own that none of those covers.
 */
public record EpochTime(double seconds, Source source, String detail) {
    public enum Source {
        /** training.secondsPerEpoch. */
        STATED,
        /** The mean of earlier SUCCEEDED runs of the same spec. */
        LEARNED,
        /** The built-in CIFAR-10 workload's figure for the instance family ({@link CostEstimate#SECONDS_PER_EPOCH}). */
        TABLE,
        /** A workload of the user's own with no figure: {@link CostEstimate#DEFAULT_SECONDS_PER_EPOCH}. */
        GUESS
    }

    public boolean guess() {
        return source == Source.GUESS;
    }

    /** "training.secondsPerEpoch", "the mean of 2 earlier SUCCEEDED runs of this spec", … for the plan's assumptions. */
    public String describe() {
        return switch (source) {
            case STATED -> "training.secondsPerEpoch";
            case LEARNED -> detail;
            case TABLE -> "the built-in workload's figure for " + detail;
            case GUESS ->
                "a GUESS: a workload of your own with no training.secondsPerEpoch and no earlier SUCCEEDED run of"
                        + " this spec" + (detail == null ? "" : " " + detail)
                        + "; give training.secondsPerEpoch for a real estimate";
        };
    }
}
