package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.workflow.StepWiring;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point: Writes a failure into the run record. */
public final class RecordFailure extends StepHandler {
    public RecordFailure() {
        this(AwsClients.fromEnvironment());
    }

    public RecordFailure(Clients clients) {
        super("RecordFailure", clients, StepWiring::recordFailure);
    }
}
