package io.trainplane.functions;

import io.trainplane.clients.AwsClients;
import io.trainplane.clients.Clients;
import io.trainplane.workflow.CleanupWiring;
import io.trainplane.workflow.StepHandler;

/** Lambda entry point (scheduled): cleans up what finished, unknown or expired runs left behind. */
public final class Janitor extends StepHandler {
    public Janitor() {
        this(AwsClients.fromEnvironment());
    }

    public Janitor(Clients clients) {
        super("Janitor", clients, CleanupWiring::janitor);
    }
}
