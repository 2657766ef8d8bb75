package io.trainplane.core;

/**
 * A failure that retrying cannot fix: the run goes to cleanup and ends FAILED. {@code reason}
 * is a short stable name (ClusterNotFound, TrainingFailed, QualityGate, …) that the run record
 * and the summary carry; the message says what happened and what to do.
 */
public class TerminalException extends RuntimeException {
    private final String reason;

    public TerminalException(String reason, String message, Throwable cause) {
        super(reason + ": " + message, cause);
        this.reason = reason;
    }

    public TerminalException(String reason, String message) {
        this(reason, message, null);
    }

    public String reason() {
        return reason;
    }
}
