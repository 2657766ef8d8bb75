package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#CHECK_CLUSTER}. Looks once at the run's EKS cluster. */
public final class CheckCluster extends StepHandler {
    public CheckCluster() {
        super(Pipeline.CHECK_CLUSTER, AwsClients.fromEnvironment());
    }
}
