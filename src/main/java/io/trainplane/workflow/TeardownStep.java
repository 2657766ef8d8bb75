package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.trainplane.aws.Clients;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Deletes what the run created, from the resources its record lists, in dependency order
 * ({@link TeardownPlan}), and reports what is left. The same step serves as Teardown,
 * CheckTeardown and RetryTeardown: asking again for a delete already under way is harmless, and
 * "already gone" counts as done. Cleanup ends FAILED ({@code CleanupFailed}) when a delete was
 * refused and nothing else is still going, or when it has taken longer than {@link #DEADLINE}.
 */
public final class TeardownStep implements KubernetesStep {
    static final Duration DEADLINE = Duration.ofMinutes(90);

    private final Services services;
    private final Infrastructure infrastructure;

    public TeardownStep(Clients clients) {
        this.services = Services.of(clients);
        this.infrastructure = Infrastructure.of(clients);
    }

    @Override
    public JsonNode run(JsonNode input) {
        String runId = Json.text(input, "runId");
        Optional<RunRecord> found = services.store().find(runId);
        if (found.isEmpty()) {
            return result(List.of());
        }
        String now = services.clock().instant().toString();
        RunRecord run = services.store().update(runId, r -> {
            var started = r.resources().containsKey(RunResources.CLEANUP_STARTED) ? r : r.withResource(RunResources.CLEANUP_STARTED, now);
            return r.status().isTerminal() ? started : started.withStatus(RunStatus.CLEANING_UP).withPhase("cleanup");
        });
        TeardownPlan plan = new TeardownPlan(run, services, infrastructure);
        List<String> remaining = plan.advance();
        if (!plan.failures().isEmpty() && !plan.progressing()) {
            throw new TerminalException("CleanupFailed", String.join("; ", plan.failures())
                    + " — still there: " + String.join(", ", remaining));
        }
        Instant started = Instant.parse(run.resources().get(RunResources.CLEANUP_STARTED));
        if (!remaining.isEmpty() && Duration.between(started, services.clock().instant()).compareTo(DEADLINE) > 0) {
            throw new TerminalException("CleanupTimedOut", "cleanup has run for more than " + DEADLINE.toMinutes()
                    + " minutes; still there: " + String.join(", ", remaining));
        }
        if (remaining.isEmpty()) {
            announce(runId);
        }
        return result(remaining);
    }

    /** The first pass that finds nothing left notes it in the record and publishes {@code Run Cleaned Up}. */
    private void announce(String runId) {
        boolean[] first = {false};
        String now = services.clock().instant().toString();
        RunRecord run = services.store().update(runId, r -> {
            first[0] = !r.resources().containsKey(CleanupRecord.FINISHED);
            return first[0] ? r.withResource(CleanupRecord.FINISHED, now) : r;
        });
        if (first[0]) {
            services.events().publish("Run Cleaned Up", CleanupRecord.event(run));
        }
    }

    private static JsonNode result(List<String> remaining) {
        var result = Json.object().put("done", remaining.isEmpty());
        ArrayNode left = result.putArray("remaining");
        remaining.forEach(left::add);
        return result;
    }
}
