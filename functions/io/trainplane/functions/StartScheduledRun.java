package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#START_SCHEDULED_RUN}, which describes it. */
public final class StartScheduledRun extends StepHandler {
    public StartScheduledRun() {
        super(Pipeline.START_SCHEDULED_RUN, AwsClients.fromEnvironment());
    }
}
