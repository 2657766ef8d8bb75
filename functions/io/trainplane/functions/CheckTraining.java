package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#CHECK_TRAINING}, which describes it. */
public final class CheckTraining extends StepHandler {
    public CheckTraining() {
        super(Pipeline.CHECK_TRAINING, AwsClients.fromEnvironment());
    }
}
