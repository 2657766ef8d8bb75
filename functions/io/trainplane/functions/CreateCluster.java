package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.workflow.StepWiring;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point: Creates the run's EKS cluster. */
public final class CreateCluster extends StepHandler {
    public CreateCluster() {
        this(AwsClients.fromEnvironment());
    }

    public CreateCluster(Clients clients) {
        super("CreateCluster", clients, StepWiring::createCluster);
    }
}
