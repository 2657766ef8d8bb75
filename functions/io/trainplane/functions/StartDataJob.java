package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.workflow.StepWiring;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point: Starts the data Job. */
public final class StartDataJob extends StepHandler {
    public StartDataJob() {
        this(AwsClients.fromEnvironment());
    }

    public StartDataJob(Clients clients) {
        super("StartDataJob", clients, StepWiring::startDataJob);
    }
}
