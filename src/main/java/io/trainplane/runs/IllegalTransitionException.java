package io.trainplane.runs;

/** A status change the transition table of {@link RunStatus} refuses. */
public final class IllegalTransitionException extends RuntimeException {
    private final String runId;
    private final RunStatus from;
    private final RunStatus to;

    public IllegalTransitionException(String runId, RunStatus from, RunStatus to) {
        super("run " + runId + ": status " + from + " cannot move to " + to + " (" + from.refusalReason(to) + ")");
        this.runId = runId;
        this.from = from;
        this.to = to;
    }

    public String runId() {
        return runId;
    }

    public RunStatus from() {
        return from;
    }

    public RunStatus to() {
        return to;
    }
}
