package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.workflow.CleanupWiring;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point: Ends a run whose pipeline stopped without ending it (the Cleanup state machine's last step). */
public final class CloseRun extends StepHandler {
    public CloseRun() {
        this(AwsClients.fromEnvironment());
    }

    public CloseRun(Clients clients) {
        super("CloseRun", clients, CleanupWiring::closeRun);
    }
}
