package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#CHECK_NODEGROUP}, which describes it. */
public final class CheckNodegroup extends StepHandler {
    public CheckNodegroup() {
        super(Pipeline.CHECK_NODEGROUP, AwsClients.fromEnvironment());
    }
}
