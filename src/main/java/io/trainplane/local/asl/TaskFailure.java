package io.trainplane.local.asl;

import java.util.Objects;

/** A task reported an error: {@code error} is the name Retry and Catch match, {@code cause} the detail. */
public final class TaskFailure extends Exception {
    private final String error;
    private final String cause;

    public TaskFailure(String error, String cause) {
        super(error + (cause == null ? "" : ": " + cause));
        this.error = Objects.requireNonNull(error, "error");
        this.cause = cause;
    }

    public String error() {
        return error;
    }

    /** The human-readable cause; may be null. */
    public String cause() {
        return cause;
    }
}
