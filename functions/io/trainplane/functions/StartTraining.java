package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.workflow.StepWiring;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point: Starts the training Job. */
public final class StartTraining extends StepHandler {
    public StartTraining() {
        this(AwsClients.fromEnvironment());
    }

    public StartTraining(Clients clients) {
        super("StartTraining", clients, StepWiring::startTraining);
    }
}
