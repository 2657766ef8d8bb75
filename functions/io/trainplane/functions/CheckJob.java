package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#CHECK_JOB}, which describes it. */
public final class CheckJob extends StepHandler {
    public CheckJob() {
        super(Pipeline.CHECK_JOB, AwsClients.fromEnvironment());
    }
}
