package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.workflow.StepWiring;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point: Validates the spec and creates the run record. */
public final class StartRun extends StepHandler {
    public StartRun() {
        this(AwsClients.fromEnvironment());
    }

    public StartRun(Clients clients) {
        super("StartRun", clients, StepWiring::startRun);
    }
}
