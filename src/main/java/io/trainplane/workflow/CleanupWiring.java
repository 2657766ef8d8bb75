package io.trainplane.workflow;

import io.trainplane.aws.RunEvents;
import io.trainplane.clients.Clients;

/**
 * The cleanup steps built from a function's clients: each step takes only what it uses, and the
 * SDK clients it uses on some paths only are asked for on first use (building one adds to the
 * cold start). The Lambda entry points and local mode build them here.
 */
public final class CleanupWiring {
    private CleanupWiring() {}

    /** Teardown, CheckTeardown and RetryTeardown ({@link TeardownStep}). */
    public static Step teardown(Clients clients) {
        Services services = Services.of(clients);
        String stack = clients.settings().stackName();
        return new TeardownStep(services.store(), clients.clock(), services::publish, stack,
                new ResourceLifecycles(clients::eks, clients::efs, clients::cloudControl, clients::clusters, stack));
    }

    /** CloseRun ({@link CloseRunStep}). */
    public static Step closeRun(Clients clients) {
        Services services = Services.of(clients);
        return new CloseRunStep(services.store(), services::publish);
    }

    /** SafetyNet ({@link SafetyNetStep}). */
    public static Step safetyNet(Clients clients) {
        return new SafetyNetStep(Services.of(clients).store(), clients::sfn, clients::cleanupStateMachineArn);
    }

    /** Janitor ({@link JanitorStep}). */
    public static Step janitor(Clients clients) {
        String stack = clients.settings().stackName();
        return new JanitorStep(Services.of(clients).store(), clients.clock(),
                () -> new RunEvents(clients.events(), clients.settings().eventBusName()),
                () -> TaggedResources.of(clients, stack), clients::sfn, clients::cleanupStateMachineArn);
    }
}
