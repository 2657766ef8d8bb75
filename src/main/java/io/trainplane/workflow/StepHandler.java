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
        this.snapStart = new SnapStartHooks(name, clients, function.priming());
        Core.getGlobalContext().register(snapStart);
    }

    @Override
    public void handleRequest(InputStream in, OutputStream out, Context context) throws IOException {
        JsonNode input = Json.read(in);
        Instant started = clock.instant();
        JsonNode result;
        try {
            result = step.run(input);
        } catch (RuntimeException e) {
            RuntimeException classified = Failures.classify(e);
            if (!(e instanceof InvalidSpecException)) {
                record(input, started, classified.getClass().getSimpleName(), classified.getMessage());
            }
            throw classified;
        }
        if (!result.path("done").isBoolean() || result.path("done").asBoolean()) {
            record(input, started, "ok", null);
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

    private void record(JsonNode input, Instant started, String outcome, String detail) {
        String runId = input.path("runId").asText(input.path("executionName").asText(""));
        if (runId.isEmpty()) {
            return;
        }
        try {
            store.addStep(runId, new StepEntry(name, started, clock.instant(), outcome, detail));
        } catch (RuntimeException e) {
            // The timeline is for people; a step's outcome never depends on it.
            LOG.log(Level.WARNING, "timeline entry for " + name + " not written", e);
        }
    }
}
