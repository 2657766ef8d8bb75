package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.workflow.StepWiring;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point: Connects to an existing cluster and creates the run's namespace. */
public final class ConnectCluster extends StepHandler {
    public ConnectCluster() {
        this(AwsClients.fromEnvironment());
    }

    public ConnectCluster(Clients clients) {
        super("ConnectCluster", clients, StepWiring::connectCluster);
    }
}
