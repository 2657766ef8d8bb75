package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.workflow.StepWiring;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point: Looks once at a Job of the run. */
public final class CheckJob extends StepHandler {
    public CheckJob() {
        this(AwsClients.fromEnvironment());
    }

    public CheckJob(Clients clients) {
        super("CheckJob", clients, StepWiring::checkJob);
    }
}
