package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One task of the state machine: reads its input, starts work or looks once, and returns what
 * goes into the execution's state at the task's ResultPath. Never sleeps waiting for the cloud.
 */
@FunctionalInterface
public interface Step {
    JsonNode run(JsonNode input);

    /**
     * SnapStart priming: runs this step's own code offline before the snapshot (the steps that
     * check a spec validate one), so the first invocation after a restore finds it loaded. Never
     * calls a client. {@code sample} is a run as the steps after StartRun receive it.
     */
    default void prime(RunContext sample) {
    }
}
