package io.trainplane.runs;

/**
 * The status of a run, in the order a run moves through them.
 *
 * <p>The transition table, checked by {@link #canMoveTo(RunStatus)}:
 * <ul>
 *   <li>staying in the same status is allowed: a retried step writes what it already wrote;</li>
 *   <li>a non-terminal status moves only forward in declaration order, and may skip statuses
 *       (PROVISIONING &rarr; TRAINING when a run has no data phase);</li>
 *   <li>any non-terminal status may move to CLEANING_UP, FAILED or CANCELLED;</li>
 *   <li>a terminal status (SUCCEEDED, BUDGET_REACHED, FAILED, CANCELLED) never changes, not even
 *       to another terminal status: a finished run is never reopened.</li>
 * </ul>
 *
 * <pre>
 * from \ to       PEN PRO PRE TRA EVA CLE SUC BUD FAI CAN
 * PENDING          =   +   +   +   +   +   +   +   +   +
 * PROVISIONING     -   =   +   +   +   +   +   +   +   +
 * PREPARING_DATA   -   -   =   +   +   +   +   +   +   +
 * TRAINING         -   -   -   =   +   +   +   +   +   +
 * EVALUATING       -   -   -   -   =   +   +   +   +   +
 * CLEANING_UP      -   -   -   -   -   =   +   +   +   +
 * SUCCEEDED        -   -   -   -   -   -   =   -   -   -
 * BUDGET_REACHED   -   -   -   -   -   -   -   =   -   -
 * FAILED           -   -   -   -   -   -   -   -   =   -
 * CANCELLED        -   -   -   -   -   -   -   -   -   =
 * </pre>
 *
 * <p>BUDGET_REACHED: the run's cost reached its {@code budgetUsd} during training, which was
 * checkpointed and stopped; its outputs (the newest checkpoint) are kept, it was not evaluated.
 */
public enum RunStatus {
    PENDING,
    PROVISIONING,
    PREPARING_DATA,
    TRAINING,
    EVALUATING,
    CLEANING_UP,
    SUCCEEDED,
    BUDGET_REACHED,
    FAILED,
    CANCELLED;

    /** SUCCEEDED, BUDGET_REACHED, FAILED and CANCELLED: the run is over and its status never changes again. */
    public boolean isTerminal() {
        return this == SUCCEEDED || this == BUDGET_REACHED || this == FAILED || this == CANCELLED;
    }

    /** Whether a run in this status may be moved to {@code next}; see the table above. */
    public boolean canMoveTo(RunStatus next) {
        if (next == null) {
            throw new NullPointerException("next status");
        }
        if (next == this) {
            return true;
        }
        if (isTerminal()) {
            return false;
        }
        return next == CLEANING_UP || next == FAILED || next == CANCELLED || next.ordinal() > ordinal();
    }

    /** Why {@code this → next} is refused, for error messages; null when it is allowed. */
    String refusalReason(RunStatus next) {
        if (canMoveTo(next)) {
            return null;
        }
        return isTerminal() ? "a terminal status never changes" : "status moves only forward";
    }
}
