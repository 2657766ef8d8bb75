package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.workflow.StepWiring;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point: Installs the add-ons and device plugin the run needs. */
public final class ConfigureCluster extends StepHandler {
    public ConfigureCluster() {
        this(AwsClients.fromEnvironment());
    }

    public ConfigureCluster(Clients clients) {
        super("ConfigureCluster", clients, StepWiring::configureCluster);
    }
}
