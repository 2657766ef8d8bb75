package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#START_RUN}, which describes it. */
public final class StartRun extends StepHandler {
    public StartRun() {
        super(Pipeline.START_RUN, AwsClients.fromEnvironment());
    }
}
