package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#CHECK_CLUSTER}, which describes it. */
public final class CheckCluster extends StepHandler {
    public CheckCluster() {
        super(Pipeline.CHECK_CLUSTER, AwsClients.fromEnvironment());
    }
}
