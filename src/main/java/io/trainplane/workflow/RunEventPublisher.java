package io.trainplane.workflow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.aws.RunEvents;
import io.trainplane.runs.LostEvent;
import io.trainplane.runs.RunNotFoundException;
import io.trainplane.runs.RunStore;
import java.time.Clock;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Publishes a run's events from one function. One EventBridge would not take is noted in the run
 * record ({@link LostEvent}), through the store's conditional update, so a concurrent write of the
 * record re-applies it rather than losing it. Neither a lost event nor a failure to note it fails
 * the step. The EventBridge client is asked for on the first event: most invocations publish none,
 * and building it would add to every cold start.
 */
public final class RunEventPublisher {
    private static final Logger LOG = Logger.getLogger(RunEventPublisher.class.getName());

    private final String function;
    private final Supplier<RunEvents> events;
    private final RunStore store;
    private final Clock clock;

    /** @param function the publishing function's name, as a lost event names it */
    public RunEventPublisher(String function, Supplier<RunEvents> events, RunStore store, Clock clock) {
        this.function = function;
        this.events = events;
        this.store = store;
        this.clock = clock;
    }

    /** Publishes one event of run {@code detail.runId}. */
    public void publish(String detailType, ObjectNode detail) {
        events.get().publish(detailType, detail).ifPresent(error -> {
            String runId = detail.path("runId").asText();
            LostEvent lost = new LostEvent(detailType, function, error, clock.instant());
            try {
                store.update(runId, r -> r.withLostEvent(lost));
            } catch (RunNotFoundException noRecord) {
                LOG.warning(() -> "run " + runId + " has no record to note that " + lost.warning());
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "run " + runId + ": could not note that " + lost.warning(), e);
            }
        });
    }
}
