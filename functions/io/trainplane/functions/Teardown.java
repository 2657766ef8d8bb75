package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.workflow.CleanupWiring;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point: Deletes what the run created; reports what is left. */
public final class Teardown extends StepHandler {
    public Teardown() {
        this(AwsClients.fromEnvironment());
    }

    public Teardown(Clients clients) {
        super("Teardown", clients, CleanupWiring::teardown);
    }
}
