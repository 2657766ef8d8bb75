package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#CREATE_CLUSTER}, which describes it. */
public final class CreateCluster extends StepHandler {
    public CreateCluster() {
        super(Pipeline.CREATE_CLUSTER, AwsClients.fromEnvironment());
    }
}
