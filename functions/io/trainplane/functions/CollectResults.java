package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#COLLECT_RESULTS}, which describes it. */
public final class CollectResults extends StepHandler {
    public CollectResults() {
        super(Pipeline.COLLECT_RESULTS, AwsClients.fromEnvironment());
    }
}
