package io.trainplane.workflow;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.clients.Clients;
import io.trainplane.core.Json;
import io.trainplane.runs.RunStore;
import io.trainplane.runs.StepEntry;
import io.trainplane.spec.InvalidSpecException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.crac.Core;
import org.crac.Resource;

/**
 * What every Lambda entry point is: JSON in, {@link Step}, JSON out. Errors leave as exceptions,
 * whose class names are what the state machine's Retry and Catch match; finished steps go into the
 * run's timeline (polls that found nothing new do not, so a long training adds no clutter).
 *
 * <p>Every handler registers its {@link SnapStartHooks} with CRaC's global context, which holds
 * them weakly: the handler, kept by the Lambda runtime, keeps them alive.
 */
public class StepHandler implements RequestStreamHandler {
    private static final String STATE_NAME = StateMachineBuilder.STATE_NAME.replace(".$", "");
    private static final String STATE_ENTERED = StateMachineBuilder.STATE_ENTERED.replace(".$", "");
    private static final Logger LOG = Logger.getLogger(StepHandler.class.getName());

    private final String name;
    private final Step step;
    private final RunStore store;
    private final Clock clock;
    private final SnapStartHooks snapStart;

    /**
     * The declared function on these clients: what its entry point in functions/ builds from the
     * environment, and what local mode and tests build with their own clients.
     */
    public StepHandler(LambdaFunction function, Clients clients) {
        this.name = function.name();
        this.step = function.step().apply(clients);
        this.store = StepWiring.runStore(clients);
        this.clock = clients.clock();
        this.snapStart = new SnapStartHooks(function, clients);
        Core.getGlobalContext().register(snapStart);
    }

    @Override
    public void handleRequest(InputStream in, OutputStream out, Context context) throws IOException {
        JsonNode input = Json.read(in);
        Instant attempt = clock.instant();
        Instant started = entered(input);
        JsonNode result;
        try {
            result = step.run(input);
        } catch (RuntimeException e) {
            RuntimeException classified = Failures.classify(e);
            if (!(e instanceof InvalidSpecException)) {
                record(
                        input,
                        failedAttempt(attempt, started),
                        classified.getClass().getSimpleName(),
                        classified.getMessage());
            }
            throw classified;
        }
        if (!result.path("done").isBoolean()) {
            record(input, started, "ok", null);
        } else if (result.path("done").asBoolean()) {
            record(input, loopEntered(input, started), "ok", null);
        }
        Json.write(result, out);
    }

    public String name() {
        return name;
    }

    /** The hooks CRaC calls around the SnapStart snapshot of this function. */
    public Resource snapStart() {
        return snapStart;
    }

    /**
     * When the state that invoked this function was entered, as the state machine says
     * ($$.State.EnteredTime, which every Task passes): a step's time includes its retries and the
     * Lambda's start, which the Lambda's own clock would miss. Invoked directly (EventBridge, a
     * test), the function has only its own clock.
     */
    private Instant entered(JsonNode input) {
        String entered = input.path(STATE_ENTERED).asText("");
        if (!entered.isEmpty()) {
            try {
                Instant at = Instant.parse(entered);
                Instant now = clock.instant();
                return at.isAfter(now) ? now : at;
            } catch (java.time.format.DateTimeParseException e) {
                LOG.warning("stateEntered is not a time: " + entered);
            }
        }
        return clock.instant();
    }

    /**
     * A failed attempt's entry starts when the attempt did: retries stay in the same state, so the
     * state's entered time keys the entry of the attempt that succeeds (a completed entry is never
     * overwritten). Never at that time itself (local mode's clock stands still while nothing waits).
     */
    private static Instant failedAttempt(Instant attempt, Instant entered) {
        return attempt.isAfter(entered) ? attempt : entered.plusMillis(1);
    }

    /**
     * A poll loop's entry spans the whole loop: the timeline keeps only the look that found it
     * done, and the loop was entered when the step before it ended (its Choice and Wait states
     * take no time of their own), so the entry starts then. One read of the timeline per loop,
     * not per look.
     */
    private Instant loopEntered(JsonNode input, Instant lastLook) {
        String runId = runId(input);
        if (runId.isEmpty()) {
            return lastLook;
        }
        try {
            return store.steps(runId).stream()
                    .map(StepEntry::ended)
                    .filter(ended -> ended != null && !ended.isAfter(lastLook))
                    .max(Instant::compareTo)
                    .orElse(lastLook);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "timeline of " + runId + " not read", e);
            return lastLook;
        }
    }

    private static String runId(JsonNode input) {
        return input.path("runId").asText(input.path("executionName").asText(""));
    }

    private void record(JsonNode input, Instant started, String outcome, String detail) {
        String runId = runId(input);
        if (runId.isEmpty()) {
            return;
        }
        // The state's name (CheckData, CheckEvaluation) says more than the function's (CheckJob).
        String state = input.path(STATE_NAME).asText(name);
        try {
            store.addStep(runId, new StepEntry(state, started, clock.instant(), outcome, detail));
        } catch (RuntimeException e) {
            // The timeline is for people; a step's outcome never depends on it.
            LOG.log(Level.WARNING, "timeline entry for " + name + " not written", e);
        }
    }
}
