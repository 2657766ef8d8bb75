package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#START_EVALUATION}, which describes it. */
public final class StartEvaluation extends StepHandler {
    public StartEvaluation() {
        super(Pipeline.START_EVALUATION, AwsClients.fromEnvironment());
    }
}
