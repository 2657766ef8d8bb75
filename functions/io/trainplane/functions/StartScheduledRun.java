package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point (EventBridge Scheduler) of {@link Pipeline#START_SCHEDULED_RUN}. Starts the TrainingPipeline for one firing of the retraining schedule. */
public final class StartScheduledRun extends StepHandler {
    public StartScheduledRun() {
        super(Pipeline.START_SCHEDULED_RUN, AwsClients.fromEnvironment());
    }
}
