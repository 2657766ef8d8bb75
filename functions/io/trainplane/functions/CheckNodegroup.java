package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.workflow.StepWiring;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point: Looks once at the run's node group. */
public final class CheckNodegroup extends StepHandler {
    public CheckNodegroup() {
        this(AwsClients.fromEnvironment());
    }

    public CheckNodegroup(Clients clients) {
        super("CheckNodegroup", clients, StepWiring::checkNodegroup);
    }
}
