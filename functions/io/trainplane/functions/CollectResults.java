package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#COLLECT_RESULTS}. Stores the evaluation's metrics and applies the quality gate. */
public final class CollectResults extends StepHandler {
    public CollectResults() {
        super(Pipeline.COLLECT_RESULTS, AwsClients.fromEnvironment());
    }
}
