package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#BIND_VOLUME}, which describes it. */
public final class BindVolume extends StepHandler {
    public BindVolume() {
        super(Pipeline.BIND_VOLUME, AwsClients.fromEnvironment());
    }
}
