package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.workflow.StepWiring;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point: Looks once at the run's file system and its mount targets. */
public final class CheckVolume extends StepHandler {
    public CheckVolume() {
        this(AwsClients.fromEnvironment());
    }

    public CheckVolume(Clients clients) {
        super("CheckVolume", clients, StepWiring::checkVolume);
    }
}
