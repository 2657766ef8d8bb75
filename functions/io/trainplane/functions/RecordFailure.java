package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point of {@link Pipeline#RECORD_FAILURE}, which describes it. */
public final class RecordFailure extends StepHandler {
    public RecordFailure() {
        super(Pipeline.RECORD_FAILURE, AwsClients.fromEnvironment());
    }
}
