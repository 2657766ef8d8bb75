package io.trainplane.runs;

import java.time.Instant;
import java.util.Objects;

/**
 * An event of the run that EventBridge did not take (after the publisher's retry): its
 * detail-type, the step that published it, why, and when. Events report a run, they never decide
 * it: a lost one is a warning in the record, not a failure.
 */
public record LostEvent(String detailType, String step, String error, Instant at) {
    /** Cut to keep the record far below DynamoDB's 400 KB item limit. */
    public static final int MAX_ERROR = 1024;

    public LostEvent {
        Objects.requireNonNull(detailType, "detailType");
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(at, "at");
        error = error == null ? "unknown" : error.length() > MAX_ERROR ? error.substring(0, MAX_ERROR) + "…" : error;
    }

    /** Whether this is the same event from the same step (a retried step losing it again). */
    boolean sameAs(LostEvent other) {
        return detailType.equals(other.detailType) && step.equals(other.step);
    }

    /** The warning people read. */
    public String warning() {
        return "event '" + detailType + "' from " + step + " was not published: " + error;
    }
}
