package io.trainplane.runs;

/**
 * Why a run failed, as users read it in the run record: the state that failed, the error name,
 * its cause, the tail of the failing container's log, and, when the cleanup gave up, what it left
 * behind ({@link CleanupFailure}). Any field may be null.
 *
 * <p>The log tail is cut to its last {@link #MAX_LOG_TAIL} characters so that a record always
 * fits DynamoDB's 400 KB item limit.
 */
public record RunError(String state, String error, String cause, String logTail, CleanupFailure cleanup) {
    public static final int MAX_LOG_TAIL = 8192;

    public RunError {
        if (logTail != null && logTail.length() > MAX_LOG_TAIL) {
            logTail = logTail.substring(logTail.length() - MAX_LOG_TAIL);
        }
    }

    /** An error whose cleanup did not fail (or has not run). */
    public RunError(String state, String error, String cause, String logTail) {
        this(state, error, cause, logTail, null);
    }

    public RunError withCleanup(CleanupFailure cleanup) {
        return new RunError(state, error, cause, logTail, cleanup);
    }

    /**
     * The cause followed by what cleanup left behind and what removes it: what the Run Failed event
     * and the execution's failure carry, so a notification names the leftovers.
     */
    public String fullCause() {
        if (cleanup == null) {
            return cause;
        }
        return cause == null || cause.isBlank() ? cleanup.sentence() : cause + " — " + cleanup.sentence();
    }
}
