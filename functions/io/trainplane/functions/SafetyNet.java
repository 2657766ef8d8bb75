package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.workflow.CleanupWiring;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point: Starts the Cleanup state machine for a pipeline execution that was stopped, timed out or failed. */
public final class SafetyNet extends StepHandler {
    public SafetyNet() {
        this(AwsClients.fromEnvironment());
    }

    public SafetyNet(Clients clients) {
        super("SafetyNet", clients, CleanupWiring::safetyNet);
    }
}
