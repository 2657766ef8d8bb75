package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#CONNECT_CLUSTER}, which describes it. */
public final class ConnectCluster extends StepHandler {
    public ConnectCluster() {
        super(Pipeline.CONNECT_CLUSTER, AwsClients.fromEnvironment());
    }
}
