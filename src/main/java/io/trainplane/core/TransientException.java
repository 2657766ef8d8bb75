package io.trainplane.core;

/**
 * A failure worth retrying: throttling, a connection reset, an optimistic-lock conflict. The
 * state machine retries it by this class's name (Lambda reports a Java exception's class name as
 * the error), with backoff and jitter.
 */
public class TransientException extends RuntimeException {
    public TransientException(String message, Throwable cause) {
        super(message, cause);
    }

    public TransientException(String message) {
        super(message);
    }
}
