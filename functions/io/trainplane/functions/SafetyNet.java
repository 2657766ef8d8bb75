package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#SAFETY_NET}, which describes it. */
public final class SafetyNet extends StepHandler {
    public SafetyNet() {
        super(Pipeline.SAFETY_NET, AwsClients.fromEnvironment());
    }
}
