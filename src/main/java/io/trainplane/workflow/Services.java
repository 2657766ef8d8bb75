package io.trainplane.workflow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.clients.Clients;
import io.trainplane.aws.RunEvents;
import io.trainplane.aws.Settings;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.runs.LostEvent;
import io.trainplane.runs.RunNotFoundException;
import io.trainplane.runs.RunStore;
import java.time.Clock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What the steps share, built from the clients: the run store, the events, the clusters. The
 * events and cluster access are taken from the clients on first use: most invocations never
 * publish or reach a cluster, and building their SDK clients at construction adds to every cold
 * start.
 */
public final class Services {
    private static final Logger LOG = Logger.getLogger(Services.class.getName());

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
     * Publishes one of a run's events from {@code step} (the function's name). One EventBridge
     * would not take is noted in the run record ({@link LostEvent}), through the store's
     * conditional update, so a concurrent write of the record re-applies it rather than losing it.
     * Neither a lost event nor a failure to note it fails the step.
     */
    public void publish(String step, String detailType, ObjectNode detail) {
        events().publish(detailType, detail).ifPresent(error -> {
            String runId = detail.path("runId").asText();
            LostEvent lost = new LostEvent(detailType, step, error, clock().instant());
            try {
                store.update(runId, r -> r.withLostEvent(lost));
            } catch (RunNotFoundException noRecord) {
                LOG.warning(() -> "run " + runId + " has no record to note that " + lost.warning());
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "run " + runId + ": could not note that " + lost.warning(), e);
            }
        });
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
