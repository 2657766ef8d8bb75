package io.trainplane.runs;

/**
 * Why a run failed, as users read it in the run record: the state that failed, the error name,
 * its cause and the tail of the failing container's log. Any field may be null.
 *
 * <p>The log tail is cut to its last {@link #MAX_LOG_TAIL} characters so that a record always
 * fits DynamoDB's 400 KB item limit.
 */
public record RunError(String state, String error, String cause, String logTail) {
    public static final int MAX_LOG_TAIL = 8192;

    public RunError {
        if (logTail != null && logTail.length() > MAX_LOG_TAIL) {
            logTail = logTail.substring(logTail.length() - MAX_LOG_TAIL);
        }
    }
}
