package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#SCALE_WORKERS}. Scales a warm node group for the run and waits for its nodes. */
public final class ScaleWorkers extends StepHandler {
    public ScaleWorkers() {
        super(Pipeline.SCALE_WORKERS, AwsClients.fromEnvironment());
    }
}
