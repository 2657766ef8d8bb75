package io.trainplane.core;

/**
 * A failure that retrying cannot fix: the run goes to cleanup and ends FAILED. {@code reason}
 * says why ({@link FailureReason}: ClusterNotFound, TrainingFailed, QualityGate, …); its name is
 * what the run record and the summary carry, and the message says what happened and what to do.
 */
public class TerminalException extends RuntimeException {
    private final FailureReason reason;

    public TerminalException(FailureReason reason, String message, Throwable cause) {
        super(reason.name() + ": " + message, cause);
        this.reason = reason;
    }

    public TerminalException(FailureReason reason, String message) {
        this(reason, message, null);
    }

    public FailureReason reason() {
        return reason;
    }
}
