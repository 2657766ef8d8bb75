package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.workflow.StepWiring;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point: Binds the file system into Kubernetes. */
public final class BindVolume extends StepHandler {
    public BindVolume() {
        this(AwsClients.fromEnvironment());
    }

    public BindVolume(Clients clients) {
        super("BindVolume", clients, StepWiring::bindVolume);
    }
}
