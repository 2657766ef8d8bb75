package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.workflow.StepWiring;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point: Looks once at the run's EKS cluster. */
public final class CheckCluster extends StepHandler {
    public CheckCluster() {
        this(AwsClients.fromEnvironment());
    }

    public CheckCluster(Clients clients) {
        super("CheckCluster", clients, StepWiring::checkCluster);
    }
}
