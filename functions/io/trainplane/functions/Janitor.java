package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#JANITOR}, which describes it. */
public final class Janitor extends StepHandler {
    public Janitor() {
        super(Pipeline.JANITOR, AwsClients.fromEnvironment());
    }
}
