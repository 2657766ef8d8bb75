package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#CHECK_NODEGROUP}. Looks once at the run's node group. */
public final class CheckNodegroup extends StepHandler {
    public CheckNodegroup() {
        super(Pipeline.CHECK_NODEGROUP, AwsClients.fromEnvironment());
    }
}
