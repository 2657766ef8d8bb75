package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point (scheduled) of {@link Pipeline#JANITOR}. Cleans up what finished, unknown or expired runs left behind. */
public final class Janitor extends StepHandler {
    public Janitor() {
        super(Pipeline.JANITOR, AwsClients.fromEnvironment());
    }
}
