package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.workflow.StepWiring;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point: Starts the evaluation Job. */
public final class StartEvaluation extends StepHandler {
    public StartEvaluation() {
        this(AwsClients.fromEnvironment());
    }

    public StartEvaluation(Clients clients) {
        super("StartEvaluation", clients, StepWiring::startEvaluation);
    }
}
