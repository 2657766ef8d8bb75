package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#TEARDOWN}, which describes it. */
public final class Teardown extends StepHandler {
    public Teardown() {
        super(Pipeline.TEARDOWN, AwsClients.fromEnvironment());
    }
}
