package io.trainplane.workflow;

import io.trainplane.aws.Clients;
import io.trainplane.aws.RunEvents;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.runs.RunStore;
import java.time.Clock;

/** What the steps share, built from the clients: the run store, the events, the clusters. */
public record Services(RunStore store, RunEvents events, Clients clients, Clock clock) {
    public static Services of(Clients clients) {
        return new Services(
                new RunStore(clients.dynamoDb(), clients.settings().tableName(), clients.clock()),
                new RunEvents(clients.events(), clients.settings().eventBusName()),
                clients,
                clients.clock());
    }

    /**
     * The clusters' Kubernetes APIs, asked for only by the steps that use them: the functions that
     * ship without the Kubernetes client never load it.
     */
    public ClusterAccess clusters() {
        return clients.clusters();
    }
}
