package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#CHECK_VOLUME}. Looks once at the run's file system and its mount targets. */
public final class CheckVolume extends StepHandler {
    public CheckVolume() {
        super(Pipeline.CHECK_VOLUME, AwsClients.fromEnvironment());
    }
}
