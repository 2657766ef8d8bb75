package io.trainplane.runs;

/**
 * A run with this id already exists with a different spec. Creating a run again with the same
 * spec is an idempotent retry and returns the stored record; a different spec is refused.
 */
public final class RunConflictException extends RuntimeException {
    private final transient RunRecord existing;

    public RunConflictException(String runId, String requestedSpecHash, RunRecord existing) {
        super("run " + runId + " already exists with a different spec (stored spec sha256 " + existing.specHash()
                + ", requested " + requestedSpecHash + ")");
        this.existing = existing;
    }

    public String runId() {
        return existing.runId();
    }

    /** The record as stored, untouched by the refused create. */
    public RunRecord existing() {
        return existing;
    }
}
