package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#CLOSE_RUN}, which describes it. */
public final class CloseRun extends StepHandler {
    public CloseRun() {
        super(Pipeline.CLOSE_RUN, AwsClients.fromEnvironment());
    }
}
