package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#SCALE_WORKERS}, which describes it. */
public final class ScaleWorkers extends StepHandler {
    public ScaleWorkers() {
        super(Pipeline.SCALE_WORKERS, AwsClients.fromEnvironment());
    }
}
