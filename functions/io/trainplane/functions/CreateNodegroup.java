package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#CREATE_NODEGROUP}. Creates the run's node group. */
public final class CreateNodegroup extends StepHandler {
    public CreateNodegroup() {
        super(Pipeline.CREATE_NODEGROUP, AwsClients.fromEnvironment());
    }
}
