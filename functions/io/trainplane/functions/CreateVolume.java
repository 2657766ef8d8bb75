package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.workflow.StepWiring;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point: Creates or adopts the run's EFS file system. */
public final class CreateVolume extends StepHandler {
    public CreateVolume() {
        this(AwsClients.fromEnvironment());
    }

    public CreateVolume(Clients clients) {
        super("CreateVolume", clients, StepWiring::createVolume);
    }
}
