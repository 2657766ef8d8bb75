package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.clients.Clients;

/**
 * One task of the state machine: reads its input, starts work or looks once, and returns what
 * goes into the execution's state at the task's ResultPath. Never sleeps waiting for the cloud.
 */
@FunctionalInterface
public interface Step {
    JsonNode run(JsonNode input);

    /**
     * SnapStart priming: runs this step's own code before the snapshot, so the first invocation
     * after a restore finds it loaded: the steps that check a spec validate one, and the steps
     * make one request of each AWS service they call, through {@code offline} (clients whose
     * requests are signed with throwaway credentials and never leave: see AwsClients#offline).
     * Never uses the function's own clients. {@code sample} is a run as the steps after StartRun
     * receive it.
     */
    default void prime(RunContext sample, Clients offline) {
    }
}
