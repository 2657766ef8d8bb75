package io.trainplane.workflow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.clients.Clients;
import io.trainplane.aws.RunEvents;
import io.trainplane.aws.Settings;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.runs.RunStore;
import java.time.Clock;

/**
 * The run store, the events and the clusters, built from the clients: what the teardown side's
 * steps (Teardown, CloseRun, SafetyNet, Janitor) and the priming of a step still reach for. The
 * other steps take what they use in their constructors ({@link StepWiring}). The events and
 * cluster access are taken from the clients on first use: most invocations never publish or
 * reach a cluster, and building their SDK clients at construction adds to every cold start.
 */
public final class Services {
    private final Clients clients;
    private final RunStore store;

    private Services(Clients clients, RunStore store) {
        this.clients = clients;
        this.store = store;
    }

    public static Services of(Clients clients) {
        return new Services(clients, new RunStore(clients.dynamoDb(), clients.settings().tableName(), clients.clock()));
    }

    public RunStore store() {
        return store;
    }

    /** A wrapper made per call: the EventBridge client behind it is built once, on first use. */
    public RunEvents events() {
        return new RunEvents(clients.events(), clients.settings().eventBusName());
    }

    /** Publishes one of a run's events from {@code step} (the function's name): see {@link RunEventPublisher}. */
    public void publish(String step, String detailType, ObjectNode detail) {
        new RunEventPublisher(step, this::events, store, clock()).publish(detailType, detail);
    }

    /**
     * The clusters' Kubernetes APIs, asked for only by the steps that use them (the clients cache
     * the access): the functions that ship without the Kubernetes client never load it.
     */
    public ClusterAccess clusters() {
        return clients.clusters();
    }

    /** The stack's settings (its name goes into the commands errors tell people to run). */
    public Settings settings() {
        return clients.settings();
    }

    public Clock clock() {
        return clients.clock();
    }
}
