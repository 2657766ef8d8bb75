package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#CREATE_VOLUME}, which describes it. */
public final class CreateVolume extends StepHandler {
    public CreateVolume() {
        super(Pipeline.CREATE_VOLUME, AwsClients.fromEnvironment());
    }
}
