package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.workflow.StepWiring;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point: Creates the run's node group. */
public final class CreateNodegroup extends StepHandler {
    public CreateNodegroup() {
        this(AwsClients.fromEnvironment());
    }

    public CreateNodegroup(Clients clients) {
        super("CreateNodegroup", clients, StepWiring::createNodegroup);
    }
}
