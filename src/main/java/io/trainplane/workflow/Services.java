package io.trainplane.workflow;

import io.trainplane.aws.Clients;
import io.trainplane.aws.RunEvents;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.runs.RunStore;
import java.time.Clock;

/**
 * What the steps share, built from the clients: the run store, the events, the clusters. The
 * events and cluster access are taken from the clients on first use: most invocations never
 * publish or reach a cluster, and building their SDK clients at construction adds to every cold
 * start.
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

    /**
     * The clusters' Kubernetes APIs, asked for only by the steps that use them (the clients cache
     * the access): the functions that ship without the Kubernetes client never load it.
     */
    public ClusterAccess clusters() {
        return clients.clusters();
    }

    public Clock clock() {
        return clients.clock();
    }
}
