package io.trainplane.runs;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The record of one run, as stored in the {@code Runs} table.
 *
 * <p>{@code runId}, {@code specJson}, {@code specHash} and {@code createdAt} identify the run and
 * never change; the store sets {@code version} and {@code updatedAt} on every write. The other
 * fields change through the {@code with…} methods, each returning a new record; a status change
 * goes through the transition table of {@link RunStatus}.
 *
 * <p>{@code phase}, {@code executionArn} and {@code error} may be null. {@code resources} is never
 * null (null becomes {@link RunResources#NONE}); {@code metrics} is never null (null becomes an
 * empty map), immutable and sorted by name.
 * Metric values must be finite. {@code lostEvents} (never null) are the run's events EventBridge
 * did not take, in the order they were lost, one per detail-type and step. {@code interruptions}
 * (never null) are the training's pods lost to their nodes, one per pod, in the order they went
 * ({@link Interruption}).
 */
public record RunRecord(
        String runId,
        String specJson,
        String specHash,
        RunStatus status,
        RunPhase phase,
        String executionArn,
        RunResources resources,
        Map<String, Double> metrics,
        RunError error,
        List<LostEvent> lostEvents,
        List<Interruption> interruptions,
        RunOutputs outputs,
        RunCost cost,
        Instant createdAt,
        Instant updatedAt,
        long version) {

    /** The phase of a run that has just been created (DESIGN §2). */
    public static final RunPhase INITIAL_PHASE = RunPhase.START;

    public RunRecord {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(specJson, "specJson");
        Objects.requireNonNull(specHash, "specHash");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
        if (runId.isBlank()) {
            throw new IllegalArgumentException("runId must not be blank");
        }
        if (version < 0) {
            throw new IllegalArgumentException("run " + runId + ": version must not be negative: " + version);
        }
        resources = resources == null ? RunResources.NONE : resources;
        lostEvents = lostEvents == null ? List.of() : List.copyOf(lostEvents);
        interruptions = interruptions == null ? List.of() : List.copyOf(interruptions);
        metrics = sortedCopy(metrics, runId);
        if (metrics.values().stream().anyMatch(value -> !Double.isFinite(value) || value.equals(-0.0))) {
            metrics = finiteMetrics(metrics, runId);
        }
    }

    /** A record with no lost events, interruptions, outputs or cost (what the tests build). */
    public RunRecord(
            String runId,
            String specJson,
            String specHash,
            RunStatus status,
            RunPhase phase,
            String executionArn,
            RunResources resources,
            Map<String, Double> metrics,
            RunError error,
            Instant createdAt,
            Instant updatedAt,
            long version) {
        this(
                runId,
                specJson,
                specHash,
                status,
                phase,
                executionArn,
                resources,
                metrics,
                error,
                List.of(),
                List.of(),
                null,
                null,
                createdAt,
                updatedAt,
                version);
    }

    /** This record with the run's outputs in S3 (CollectResults, from the outputs Job). */
    public RunRecord withOutputs(RunOutputs outputs) {
        return change(c -> c.outputs = outputs);
    }

    /** This record with what the run really used, priced (FinishRun, when the run ends). */
    public RunRecord withCost(RunCost cost) {
        return change(c -> c.cost = cost);
    }

    /** A new run: PENDING, in the {@link #INITIAL_PHASE}, version 1, created and updated at {@code now}. */
    public static RunRecord newRun(String runId, String specJson, String executionArn, Instant now) {
        return new RunRecord(
                runId,
                specJson,
                SpecHash.of(specJson),
                RunStatus.PENDING,
                INITIAL_PHASE,
                executionArn,
                RunResources.NONE,
                Map.of(),
                null,
                now,
                now,
                1);
    }

    /** Moves to {@code next}; refused with {@link IllegalTransitionException} when the table forbids it. */
    public RunRecord withStatus(RunStatus next) {
        if (!status.canMoveTo(next)) {
            throw new IllegalTransitionException(runId, status, next);
        }
        return change(c -> c.status = next);
    }

    public RunRecord withPhase(RunPhase phase) {
        return change(c -> c.phase = phase);
    }

    /** Records a resource the run created or adopted, replacing any previous value of {@code key}. */
    public <T> RunRecord withResource(RunResources.Key<T> key, T value) {
        return withResources(resources.with(key, value));
    }

    public RunRecord withoutResource(RunResources.Key<?>... keys) {
        return withResources(resources.without(keys));
    }

    public RunRecord withResources(RunResources resources) {
        return change(c -> c.resources = resources);
    }

    /** Replaces all metrics with {@code metrics}. */
    public RunRecord withMetrics(Map<String, Double> metrics) {
        return change(c -> c.metrics = metrics);
    }

    /** Sets one metric, keeping the others. */
    public RunRecord withMetric(String name, double value) {
        Map<String, Double> next = new TreeMap<>(metrics);
        next.put(Objects.requireNonNull(name, "name"), value);
        return withMetrics(next);
    }

    public RunRecord withError(RunError error) {
        return change(c -> c.error = error);
    }

    public RunRecord withExecutionArn(String executionArn) {
        return change(c -> c.executionArn = executionArn);
    }

    /**
     * Notes an event that was not published; the same detail-type from the same step (a retried
     * step losing it again) is noted once.
     */
    public RunRecord withLostEvent(LostEvent lost) {
        if (lostEvents.stream().anyMatch(lost::sameAs)) {
            return this;
        }
        List<LostEvent> next = new ArrayList<>(lostEvents);
        next.add(lost);
        return change(c -> c.lostEvents = next);
    }

    /**
     * Notes a training pod lost to its node, once: an interruption of the same pod already noted
     * (CheckTraining looks many times) changes nothing.
     */
    public RunRecord withInterruption(Interruption interruption) {
        if (interrupted(interruption.pod())) {
            return this;
        }
        List<Interruption> next = new ArrayList<>(interruptions);
        next.add(interruption);
        return withInterruptions(next);
    }

    /** Replaces the noted interruption of the same pod (its resumption learnt); one not noted is added. */
    public RunRecord withInterruptionUpdated(Interruption interruption) {
        List<Interruption> next = new ArrayList<>(interruptions);
        next.removeIf(i -> i.pod().equals(interruption.pod()));
        next.add(interruption);
        next.sort(java.util.Comparator.comparing(Interruption::at).thenComparing(Interruption::pod));
        return withInterruptions(next);
    }

    /** Whether the loss of {@code pod} is noted. */
    public boolean interrupted(String pod) {
        return interruptions.stream().anyMatch(i -> i.pod().equals(pod));
    }

    private RunRecord withInterruptions(List<Interruption> interruptions) {
        return change(c -> c.interruptions = interruptions);
    }

    /** What the store writes: this record at {@code version}, updated at {@code updatedAt}. */
    RunRecord stored(long version, Instant updatedAt) {
        return change(c -> {
            c.version = version;
            c.updatedAt = updatedAt;
        });
    }

    /** The fields a wither changes, starting from this record's; the record's checks run on the new one. */
    private static final class Change {
        RunStatus status;
        RunPhase phase;
        String executionArn;
        RunResources resources;
        Map<String, Double> metrics;
        RunError error;
        List<LostEvent> lostEvents;
        List<Interruption> interruptions;
        RunOutputs outputs;
        RunCost cost;
        Instant updatedAt;
        long version;

        Change(RunRecord r) {
            status = r.status;
            phase = r.phase;
            executionArn = r.executionArn;
            resources = r.resources;
            metrics = r.metrics;
            error = r.error;
            lostEvents = r.lostEvents;
            interruptions = r.interruptions;
            outputs = r.outputs;
            cost = r.cost;
            updatedAt = r.updatedAt;
            version = r.version;
        }
    }

    /** This record with what {@code change} sets; the identity (runId, spec, createdAt) never changes. */
    private RunRecord change(Consumer<Change> change) {
        Change c = new Change(this);
        change.accept(c);
        return new RunRecord(
                runId,
                specJson,
                specHash,
                c.status,
                c.phase,
                c.executionArn,
                c.resources,
                c.metrics,
                c.error,
                c.lostEvents,
                c.interruptions,
                c.outputs,
                c.cost,
                createdAt,
                c.updatedAt,
                c.version);
    }

    public RunSummary summary() {
        return new RunSummary(
                runId,
                status,
                phase,
                createdAt,
                updatedAt,
                cost == null ? null : cost.total(),
                cost == null ? null : cost.hours(),
                RunSummary.gateMetric(specJson),
                metrics.get(RunSummary.gateMetric(specJson)));
    }

    /** Refuses NaN and infinities (DynamoDB numbers have neither); -0.0 becomes 0.0, as DynamoDB stores it. */
    private static Map<String, Double> finiteMetrics(Map<String, Double> metrics, String runId) {
        TreeMap<String, Double> copy = new TreeMap<>();
        metrics.forEach((name, value) -> {
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("run " + runId + ": metric " + name + " is not finite: " + value);
            }
            copy.put(name, value == 0.0 ? 0.0 : value);
        });
        return Collections.unmodifiableSortedMap(copy);
    }

    private static SortedMap<String, Double> sortedCopy(Map<String, Double> map, String runId) {
        TreeMap<String, Double> copy = new TreeMap<>();
        if (map != null) {
            map.forEach((key, value) -> {
                if (key == null || value == null) {
                    throw new IllegalArgumentException(
                            "run " + runId + ": metrics must not hold nulls: " + key + "=" + value);
                }
                copy.put(key, value);
            });
        }
        return Collections.unmodifiableSortedMap(copy);
    }
}
