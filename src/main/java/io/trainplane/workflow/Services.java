package io.trainplane.workflow;

import io.trainplane.aws.Clients;
import io.trainplane.aws.RunEvents;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.runs.RunStore;
import java.time.Clock;

/** What the steps share, built from the clients: the run store, the events, the clusters. */
public record Services(RunStore store, RunEvents events, ClusterAccess clusters, Clock clock) {
    public static Services of(Clients clients) {
        return new Services(
                new RunStore(clients.dynamoDb(), clients.settings().tableName(), clients.clock()),
                new RunEvents(clients.events(), clients.settings().eventBusName()),
                clients.clusters(),
                clients.clock());
    }
}
