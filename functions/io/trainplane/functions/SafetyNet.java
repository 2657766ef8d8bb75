package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#SAFETY_NET}. Starts the Cleanup state machine for a pipeline execution that was stopped, timed out or failed. */
public final class SafetyNet extends StepHandler {
    public SafetyNet() {
        super(Pipeline.SAFETY_NET, AwsClients.fromEnvironment());
    }
}
