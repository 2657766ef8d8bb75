package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#FINISH_RUN}, which describes it. */
public final class FinishRun extends StepHandler {
    public FinishRun() {
        super(Pipeline.FINISH_RUN, AwsClients.fromEnvironment());
    }
}
