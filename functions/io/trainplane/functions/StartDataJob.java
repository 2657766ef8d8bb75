package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#START_DATA_JOB}, which describes it. */
public final class StartDataJob extends StepHandler {
    public StartDataJob() {
        super(Pipeline.START_DATA_JOB, AwsClients.fromEnvironment());
    }
}
