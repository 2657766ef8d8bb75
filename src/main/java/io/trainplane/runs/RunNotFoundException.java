package io.trainplane.runs;

/** No run record exists for the run id. */
public final class RunNotFoundException extends RuntimeException {
    private final String runId;

    public RunNotFoundException(String runId) {
        super("run " + runId + " not found");
        this.runId = runId;
    }

    public String runId() {
        return runId;
    }
}
