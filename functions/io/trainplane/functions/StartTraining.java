package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#START_TRAINING}, which describes it. */
public final class StartTraining extends StepHandler {
    public StartTraining() {
        super(Pipeline.START_TRAINING, AwsClients.fromEnvironment());
    }
}
