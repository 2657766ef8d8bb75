package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#CONFIGURE_CLUSTER}, which describes it. */
public final class ConfigureCluster extends StepHandler {
    public ConfigureCluster() {
        super(Pipeline.CONFIGURE_CLUSTER, AwsClients.fromEnvironment());
    }
}
