package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#CREATE_NODEGROUP}, which describes it. */
public final class CreateNodegroup extends StepHandler {
    public CreateNodegroup() {
        super(Pipeline.CREATE_NODEGROUP, AwsClients.fromEnvironment());
    }
}
