package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.workflow.StepWiring;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point: Looks once at the training Job. */
public final class CheckTraining extends StepHandler {
    public CheckTraining() {
        this(AwsClients.fromEnvironment());
    }

    public CheckTraining(Clients clients) {
        super("CheckTraining", clients, StepWiring::checkTraining);
    }
}
