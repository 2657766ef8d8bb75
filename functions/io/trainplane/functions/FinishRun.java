package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.workflow.StepWiring;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point: Ends the run and publishes its outcome. */
public final class FinishRun extends StepHandler {
    public FinishRun() {
        this(AwsClients.fromEnvironment());
    }

    public FinishRun(Clients clients) {
        super("FinishRun", clients, StepWiring::finishRun);
    }
}
