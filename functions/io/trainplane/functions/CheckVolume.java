package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#CHECK_VOLUME}, which describes it. */
public final class CheckVolume extends StepHandler {
    public CheckVolume() {
        super(Pipeline.CHECK_VOLUME, AwsClients.fromEnvironment());
    }
}
