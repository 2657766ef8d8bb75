package io.trainplane.runs;

/**
 * A conditional write found another version than the one it was based on: someone else updated
 * the run in between. Carries the record as it is now stored, so the caller can re-apply its change.
 */
public final class VersionConflictException extends RuntimeException {
    private final transient RunRecord current;
    private final long expectedVersion;

    public VersionConflictException(long expectedVersion, RunRecord current) {
        this(
                "run " + current.runId() + ": expected version " + expectedVersion + " but the stored version is "
                        + current.version(),
                expectedVersion,
                current,
                null);
    }

    VersionConflictException(String message, long expectedVersion, RunRecord current, Throwable cause) {
        super(message, cause);
        this.expectedVersion = expectedVersion;
        this.current = current;
    }

    public String runId() {
        return current.runId();
    }

    public long expectedVersion() {
        return expectedVersion;
    }

    /** The record as stored when the write was refused. */
    public RunRecord current() {
        return current;
    }
}
