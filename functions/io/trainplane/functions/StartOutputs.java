package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#START_OUTPUTS}, which describes it. */
public final class StartOutputs extends StepHandler {
    public StartOutputs() {
        super(Pipeline.START_OUTPUTS, AwsClients.fromEnvironment());
    }
}
