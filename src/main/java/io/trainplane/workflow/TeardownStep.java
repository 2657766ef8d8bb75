package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.trainplane.core.FailureReason;
import io.trainplane.core.Json;
import io.trainplane.core.TerminalException;
import io.trainplane.runs.CleanupFailure;
import io.trainplane.runs.RunError;
import io.trainplane.runs.RunPhase;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStatus;
import io.trainplane.runs.RunStore;
import java.time.Clock;
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
 * Giving up, it writes into the run's error what is left ({@link ResourceLifecycles#left}) and
 * what removes it ({@link Leftovers}); a later pass that finds nothing left takes that back.
 */
public final class TeardownStep implements KubernetesStep {
    static final Duration DEADLINE = Duration.ofMinutes(90);
    /** The failed state a cleanup failure names when the run had not failed before (the function's name). */
    static final String STATE = "Teardown";
    /** In the input: what to delete; absent, everything the run holds. */
    static final String SCOPE = "scope";
    /**
     * Only the workers' node group, and without waiting for it (ReleaseWorkers, once the evaluation
     * is done): accelerated nodes are billed until their instances terminate, and nothing later needs them.
     */
    static final String WORKERS = "workers";

    private final RunStore store;
    private final Clock clock;
    private final RunEventPublisher events;
    private final String stackName;
    private final ResourceLifecycles lifecycles;

    /** Built by {@link StepWiring#teardown}. */
    TeardownStep(
            RunStore store, Clock clock, RunEventPublisher events, String stackName, ResourceLifecycles lifecycles) {
        this.store = store;
        this.clock = clock;
        this.events = events;
        this.stackName = stackName;
        this.lifecycles = lifecycles;
    }

    @Override
    public JsonNode run(JsonNode input) {
        String runId = Json.text(input, "runId");
        Optional<RunRecord> found = store.find(runId);
        if (found.isEmpty()) {
            return result(List.of());
        }
        if (WORKERS.equals(input.path(SCOPE).asText())) {
            return releaseWorkers(found.get());
        }
        Instant now = clock.instant();
        RunRecord run = store.update(runId, r -> {
            var started = r.resources().has(RunResources.CLEANUP_STARTED)
                    ? r
                    : r.withResource(RunResources.CLEANUP_STARTED, now);
            return r.status().isTerminal()
                    ? started
                    : started.withStatus(RunStatus.CLEANING_UP).withPhase(RunPhase.CLEANUP);
        });
        TeardownPlan plan = new TeardownPlan(run, lifecycles, change -> store.update(runId, change));
        List<String> remaining = plan.advance();
        if (!plan.failures().isEmpty() && !plan.progressing()) {
            throw giveUp(runId, FailureReason.CleanupFailed, String.join("; ", plan.failures()));
        }
        Instant started = run.resources().get(RunResources.CLEANUP_STARTED).orElseThrow();
        if (!remaining.isEmpty() && Duration.between(started, clock.instant()).compareTo(DEADLINE) > 0) {
            throw giveUp(
                    runId,
                    FailureReason.CleanupTimedOut,
                    "cleanup has run for more than " + DEADLINE.toMinutes() + " minutes");
        }
        if (remaining.isEmpty()) {
            finished(runId);
        }
        return result(remaining);
    }

    /**
     * Asks for the workers' node group to go, unless cleanup keeps it with the cluster, or a warm
     * node group's nodes to be scaled in; cleanup later waits for them with the rest. Nothing else
     * changes: the run is not cleaning up yet.
     */
    private JsonNode releaseWorkers(RunRecord run) {
        var result = Json.object();
        ArrayNode released = result.putArray("released");
        var held = lifecycles.bind(
                run, change -> store.update(run.runId(), r -> r.withResources(change.apply(r.resources()))));
        for (ResourceKind workers : List.of(ResourceKind.NODE_GROUP, ResourceKind.WARM_NODES)) {
            if (!workers.kept(CleanupRecord.keep(run), run.resources())) {
                held.apply(workers).ifPresent(nodes -> {
                    nodes.delete();
                    nodes.named().forEach(released::add);
                });
            }
        }
        return result;
    }

    /**
     * Writes into the run's error what is left and what removes it, and returns the failure to
     * throw. A run that ended well (SUCCEEDED, CANCELLED) keeps its record as it is: its resources
     * still list what is left.
     */
    private TerminalException giveUp(String runId, FailureReason error, String cause) {
        RunRecord current = store.get(runId);
        List<String> left = lifecycles.left(current);
        CleanupFailure failure =
                left.isEmpty() ? null : Leftovers.failure(current, error.name(), cause, left, stackName);
        store.update(
                runId,
                r -> r.status() == RunStatus.SUCCEEDED || r.status() == RunStatus.CANCELLED
                        ? r
                        : r.error() == null
                                ? r.withError(new RunError(STATE, error.name(), cause, null, failure))
                                : r.withError(r.error().withCleanup(failure)));
        return new TerminalException(
                error, cause + " — still there: " + (left.isEmpty() ? "nothing" : String.join(", ", left)));
    }

    /**
     * Nothing is left: the record says so, no longer says what a cleanup that gave up earlier
     * left, and the run lets go of the file system it adopted. The first pass that finds nothing left notes it and publishes {@code Run Cleaned Up}.
     */
    private void finished(String runId) {
        boolean[] first = {false};
        Instant now = clock.instant();
        RunRecord run = store.update(runId, r -> {
            first[0] = !r.resources().has(RunResources.CLEANUP_FINISHED);
            RunRecord done = first[0] ? r.withResource(RunResources.CLEANUP_FINISHED, now) : r;
            return done.error() != null && done.error().cleanup() != null
                    ? done.withError(done.error().withCleanup(null))
                    : done;
        });
        // The volume it adopted is free for the next run: nothing of this run mounts it any more.
        FileSystemAdoption.release(run, store);
        if (first[0]) {
            events.publish("Run Cleaned Up", CleanupRecord.event(run));
        }
    }

    private static JsonNode result(List<String> remaining) {
        var result = Json.object().put("done", remaining.isEmpty());
        ArrayNode left = result.putArray("remaining");
        remaining.forEach(left::add);
        return result;
    }
}
