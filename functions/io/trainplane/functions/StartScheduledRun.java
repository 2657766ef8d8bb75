package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.workflow.StepWiring;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point (EventBridge Scheduler): starts the TrainingPipeline for one firing of the retraining schedule. */
public final class StartScheduledRun extends StepHandler {
    public StartScheduledRun() {
        this(AwsClients.fromEnvironment());
    }

    public StartScheduledRun(Clients clients) {
        super("StartScheduledRun", clients, StepWiring::startScheduledRun);
    }
}
