package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.workflow.StepWiring;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point: Stores the evaluation's metrics and applies the quality gate. */
public final class CollectResults extends StepHandler {
    public CollectResults() {
        this(AwsClients.fromEnvironment());
    }

    public CollectResults(Clients clients) {
        super("CollectResults", clients, StepWiring::collectResults);
    }
}
