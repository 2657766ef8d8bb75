package io.trainplane.runs;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

/**
 * The run store: run records and their timelines in the {@code Runs} table (see {@link RunsTable}).
 *
 * <p>Every write of a run record is one conditional PutItem: {@link #create} only if no record
 * exists, {@link #replace} only if the stored version is the expected one and the stored status
 * may move to the new one. A refused write reads the stored record from the refusal itself
 * ({@code ReturnValuesOnConditionCheckFailure: ALL_OLD}), as Powertools' idempotency store does.
 * Reads of one run are strongly consistent; listings go through the status index and are
 * eventually consistent.
 */
public final class RunStore {
    /** Attempts of {@link #update} before it gives up on a contended record. */
    static final int MAX_UPDATE_ATTEMPTS = 50;

    private static final long BACKOFF_BASE_MILLIS = 2;
    private static final long BACKOFF_CAP_MILLIS = 100;

    private final DynamoDbClient dynamo;
    private final String tableName;
    private final Clock clock;

    public RunStore(DynamoDbClient dynamo, String tableName, Clock clock) {
        this.dynamo = Objects.requireNonNull(dynamo, "dynamo");
        this.tableName = Objects.requireNonNull(tableName, "tableName");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Creates the record of a new run: PENDING, version 1. When the run already exists with the
     * same spec (same SHA-256 of the spec JSON), this is a retry and the stored record is returned
     * unchanged; with another spec it is a {@link RunConflictException}.
     */
    public RunRecord create(String runId, String specJson, String executionArn) {
        RunRecord run = RunRecord.newRun(runId, specJson, executionArn, clock.instant());
        try {
            dynamo.putItem(conditionalPut(RunItems.runItem(run))
                    .conditionExpression("attribute_not_exists(#pk)")
                    .expressionAttributeNames(Map.of("#pk", RunItems.PK))
                    .build());
            return run;
        } catch (ConditionalCheckFailedException refused) {
            RunRecord existing = storedRecord(refused, runId);
            if (existing.specHash().equals(run.specHash())) {
                return existing;
            }
            throw new RunConflictException(runId, run.specHash(), existing);
        }
    }

    public Optional<RunRecord> find(String runId) {
        GetItemResponse response = dynamo.getItem(
                b -> b.tableName(tableName).key(RunItems.runKey(runId)).consistentRead(true));
        return response.hasItem() && !response.item().isEmpty()
                ? Optional.of(RunItems.run(response.item()))
                : Optional.empty();
    }

    public RunRecord get(String runId) {
        return find(runId).orElseThrow(() -> new RunNotFoundException(runId));
    }

    /**
     * Writes {@code updated} in place of {@code expected}, in one conditional write that succeeds
     * only if the stored version is still {@code expected.version()} and the stored status may
     * move to {@code updated.status()} (so a terminal record is never reopened, whatever the
     * caller claims {@code expected} is). Returns what was stored: {@code updated} at version
     * {@code expected.version() + 1}, updated now.
     *
     * @throws VersionConflictException the stored version differs; carries the stored record
     * @throws IllegalTransitionException the status change is refused by the transition table
     * @throws RunNotFoundException no record exists
     */
    public RunRecord replace(RunRecord expected, RunRecord updated) {
        requireSameRun(expected, updated);
        String runId = expected.runId();
        if (!expected.status().canMoveTo(updated.status())) {
            throw new IllegalTransitionException(runId, expected.status(), updated.status());
        }
        RunRecord stored = updated.stored(expected.version() + 1, clock.instant());

        Map<String, String> names = Map.of("#version", RunItems.VERSION, "#status", RunItems.STATUS);
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":expected", AttributeValue.fromN(Long.toString(expected.version())));
        List<String> placeholders = new ArrayList<>();
        for (RunStatus from : predecessors(updated.status())) {
            String placeholder = ":from" + from.ordinal();
            placeholders.add(placeholder);
            values.put(placeholder, RunItems.s(from.name()));
        }
        try {
            dynamo.putItem(conditionalPut(RunItems.runItem(stored))
                    .conditionExpression(
                            "#version = :expected AND #status IN (" + String.join(", ", placeholders) + ")")
                    .expressionAttributeNames(names)
                    .expressionAttributeValues(values)
                    .build());
            return stored;
        } catch (ConditionalCheckFailedException refused) {
            RunRecord current = storedRecord(refused, runId);
            if (wouldAccept(current, expected.version(), updated.status())) {
                // The returned item does not explain the refusal: it is not the one the condition saw
                // (DynamoDB, and the twin's DynamoDB in the condition's own transaction, return that
                // one; a store that does not is not trusted). Classify from a fresh read.
                current = get(runId);
            }
            if (current.version() == expected.version() && !current.status().canMoveTo(updated.status())) {
                throw new IllegalTransitionException(runId, current.status(), updated.status());
            }
            throw new VersionConflictException(expected.version(), current);
        }
    }

    /** Whether a stored record satisfies the condition of {@link #replace}. */
    private static boolean wouldAccept(RunRecord stored, long expectedVersion, RunStatus next) {
        return stored.version() == expectedVersion && stored.status().canMoveTo(next);
    }

    /**
     * Reads the run, applies {@code change} and writes the result with {@link #replace}; when
     * another writer got there first, reads again and re-applies, up to
     * {@value #MAX_UPDATE_ATTEMPTS} attempts with a short jittered backoff. {@code change} must
     * be a pure function of the record: it may run several times. A change that leaves the record
     * as it is writes nothing and returns the stored record. An {@link IllegalTransitionException}
     * from {@code change} or from the write is not retried.
     *
     * @throws VersionConflictException still contended after the last attempt
     */
    public RunRecord update(String runId, UnaryOperator<RunRecord> change) {
        VersionConflictException lastConflict = null;
        for (int attempt = 1; attempt <= MAX_UPDATE_ATTEMPTS; attempt++) {
            RunRecord current = get(runId);
            RunRecord changed = Objects.requireNonNull(change.apply(current), "the change returned null");
            if (changed.equals(current)) {
                return current;
            }
            try {
                return replace(current, changed);
            } catch (VersionConflictException conflict) {
                lastConflict = conflict;
                backOff(attempt);
            }
        }
        throw new VersionConflictException(
                "run " + runId + ": still contended after " + MAX_UPDATE_ATTEMPTS + " attempts to update it",
                lastConflict.expectedVersion(),
                lastConflict.current(),
                lastConflict);
    }

    /**
     * Records a timeline entry, keyed by its start and state. Idempotent: writing the same entry
     * again changes nothing. An open entry (no {@code ended}) may be completed by writing it again
     * with its end; a completed entry is never overwritten (a late retry of its start is ignored).
     */
    public void addStep(String runId, StepEntry step) {
        try {
            dynamo.putItem(PutItemRequest.builder()
                    .tableName(tableName)
                    .item(RunItems.stepItem(runId, step))
                    .conditionExpression("attribute_not_exists(#sk) OR attribute_not_exists(#ended)")
                    .expressionAttributeNames(Map.of("#sk", RunItems.SK, "#ended", RunItems.ENDED))
                    .build());
        } catch (ConditionalCheckFailedException alreadyCompleted) {
            // The entry is already recorded with its end: nothing to do.
        }
    }

    /** The run's timeline, in time order (by start, then state name). */
    public List<StepEntry> steps(String runId) {
        QueryRequest request = QueryRequest.builder()
                .tableName(tableName)
                .keyConditionExpression("#pk = :pk AND begins_with(#sk, :prefix)")
                .expressionAttributeNames(Map.of("#pk", RunItems.PK, "#sk", RunItems.SK))
                .expressionAttributeValues(Map.of(
                        ":pk", RunItems.s(RunItems.pk(runId)),
                        ":prefix", RunItems.s(RunItems.STEP_SK_PREFIX)))
                .consistentRead(true)
                .build();
        List<StepEntry> steps = new ArrayList<>();
        dynamo.queryPaginator(request).items().forEach(item -> steps.add(RunItems.step(item)));
        return steps;
    }

    /**
     * Records how far the training is, replacing what was recorded before (one item a run, beside
     * its record: a look at the training does not contend with the record's conditional writes).
     * An older reading never replaces a newer one.
     */
    public void recordProgress(String runId, TrainingProgress progress) {
        try {
            dynamo.putItem(PutItemRequest.builder()
                    .tableName(tableName)
                    .item(RunItems.progressItem(runId, progress))
                    .conditionExpression("attribute_not_exists(#at) OR #at <= :at")
                    .expressionAttributeNames(Map.of("#at", "at"))
                    .expressionAttributeValues(Map.of(":at", RunItems.s(IsoTime.format(progress.at()))))
                    .build());
        } catch (ConditionalCheckFailedException newerRecorded) {
            // A later look already recorded a newer reading.
        }
    }

    /**
     * Keeps a packed directory's code (the ConfigMap route, {@link io.trainplane.spec.CodeDirectory#archive})
     * beside the run's record, before the run starts: the CLI that packed it writes it, the steps
     * that make the run's ConfigMap read it. Written again with the same digest, it is the same
     * code; a run ID whose code differs is refused, as a spec that differs is.
     */
    public void putCode(String runId, String sha256, byte[] archive) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(RunItems.PK, RunItems.s(RunItems.pk(runId)));
        item.put(RunItems.SK, RunItems.s(RunItems.CODE_SK));
        item.put("sha256", RunItems.s(sha256));
        item.put("archive", AttributeValue.fromB(software.amazon.awssdk.core.SdkBytes.fromByteArray(archive)));
        try {
            dynamo.putItem(PutItemRequest.builder()
                    .tableName(tableName)
                    .item(item)
                    .conditionExpression("attribute_not_exists(#sha) OR #sha = :sha")
                    .expressionAttributeNames(Map.of("#sha", "sha256"))
                    .expressionAttributeValues(Map.of(":sha", RunItems.s(sha256)))
                    .build());
        } catch (ConditionalCheckFailedException other) {
            throw new IllegalStateException("run " + runId + " already has other code: give the new run another runId");
        }
    }

    /** The code {@link #putCode} kept for the run, if its digest is {@code sha256}. */
    public Optional<byte[]> code(String runId, String sha256) {
        GetItemResponse response = dynamo.getItem(b -> b.tableName(tableName)
                .key(Map.of(RunItems.PK, RunItems.s(RunItems.pk(runId)), RunItems.SK, RunItems.s(RunItems.CODE_SK)))
                .consistentRead(true));
        if (!response.hasItem() || response.item().isEmpty()) {
            return Optional.empty();
        }
        Map<String, AttributeValue> item = response.item();
        return sha256.equals(item.get("sha256").s())
                ? Optional.of(item.get("archive").b().asByteArray())
                : Optional.empty();
    }

    /**
     * What one run at a time may hold, each claim an item under its kind's partition whose
     * {@code runId} names the run that holds it.
     */
    public enum Claim {
        /** A warm node group, by {@code <cluster>/<nodegroup>}: the run scales it. */
        WARM_NODEGROUP("WARM"),
        /** An adopted file system (EFS or FSx for Lustre), by its id: the run mounts it read-write. */
        FILE_SYSTEM("FILE-SYSTEM");

        final String partition;

        Claim(String partition) {
            this.partition = partition;
        }
    }

    /**
     * Claims {@code ref} of {@code kind} for {@code runId}. Conditional, so two runs never hold it
     * at once; claiming it again is harmless.
     *
     * @return empty when the run holds it now; the other run's id when that one does
     */
    public Optional<String> claim(Claim kind, String ref, String runId) {
        try {
            dynamo.updateItem(b -> b.tableName(tableName)
                    .key(RunItems.claimKey(kind.partition, ref))
                    .updateExpression("SET #run = :run, #at = :at")
                    .conditionExpression("attribute_not_exists(#run) OR #run = :run")
                    .expressionAttributeNames(Map.of("#run", RunItems.RUN_ID, "#at", RunItems.CREATED_AT))
                    .expressionAttributeValues(
                            Map.of(":run", RunItems.s(runId), ":at", RunItems.s(IsoTime.format(clock.instant()))))
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD));
            return Optional.empty();
        } catch (ConditionalCheckFailedException held) {
            return Optional.of(
                    held.hasItem() && held.item().containsKey(RunItems.RUN_ID)
                            ? held.item().get(RunItems.RUN_ID).s()
                            : "another run");
        }
    }

    /** Lets go of {@code ref} if {@code runId} holds it (an UpdateItem: the item stays, unheld). */
    public void release(Claim kind, String ref, String runId) {
        try {
            dynamo.updateItem(b -> b.tableName(tableName)
                    .key(RunItems.claimKey(kind.partition, ref))
                    .updateExpression("REMOVE #run, #at")
                    .conditionExpression("#run = :run")
                    .expressionAttributeNames(Map.of("#run", RunItems.RUN_ID, "#at", RunItems.CREATED_AT))
                    .expressionAttributeValues(Map.of(":run", RunItems.s(runId))));
        } catch (ConditionalCheckFailedException notHeld) {
            // Released already, or never claimed by this run: nothing of it to let go.
        }
    }

    /** Which run holds {@code ref}, if one does. */
    public Optional<String> holder(Claim kind, String ref) {
        GetItemResponse response = dynamo.getItem(b -> b.tableName(tableName)
                .key(RunItems.claimKey(kind.partition, ref))
                .consistentRead(true));
        return response.hasItem() && response.item().containsKey(RunItems.RUN_ID)
                ? Optional.of(response.item().get(RunItems.RUN_ID).s())
                : Optional.empty();
    }

    /** Everything of {@code kind} a run holds now, by ref, with the run's id (the janitor's look). */
    public Map<String, String> claims(Claim kind) {
        Map<String, String> claims = new java.util.TreeMap<>();
        for (var page : dynamo.queryPaginator(b -> b.tableName(tableName)
                .keyConditionExpression("#pk = :pk")
                .expressionAttributeNames(Map.of("#pk", RunItems.PK))
                .expressionAttributeValues(Map.of(":pk", RunItems.s(kind.partition)))
                .consistentRead(true))) {
            page.items().stream()
                    .filter(item -> item.containsKey(RunItems.RUN_ID))
                    .forEach(item -> claims.put(
                            item.get(RunItems.SK).s(), item.get(RunItems.RUN_ID).s()));
        }
        return claims;
    }

    /** The training's progress as last recorded, if it reported any. */
    public Optional<TrainingProgress> progress(String runId) {
        GetItemResponse response = dynamo.getItem(b -> b.tableName(tableName)
                .key(Map.of(RunItems.PK, RunItems.s(RunItems.pk(runId)), RunItems.SK, RunItems.s(RunItems.PROGRESS_SK)))
                .consistentRead(true));
        return response.hasItem() && !response.item().isEmpty()
                ? Optional.of(RunItems.progress(response.item()))
                : Optional.empty();
    }

    /** Up to {@code limit} runs in {@code status}, newest first (by creation time), from the status index. */
    public List<RunSummary> listByStatus(RunStatus status, int limit) {
        Objects.requireNonNull(status, "status");
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        Map<String, String> names = new HashMap<>();
        List<String> projected = new ArrayList<>();
        for (String attribute : RunItems.SUMMARY_ATTRIBUTES) {
            names.put("#" + attribute, attribute);
            projected.add("#" + attribute);
        }
        List<RunSummary> runs = new ArrayList<>();
        Map<String, AttributeValue> startKey = null;
        do {
            QueryResponse page = dynamo.query(QueryRequest.builder()
                    .tableName(tableName)
                    .indexName(RunsTable.STATUS_INDEX)
                    .keyConditionExpression("#status = :status")
                    .expressionAttributeNames(names)
                    .expressionAttributeValues(Map.of(":status", RunItems.s(status.name())))
                    .projectionExpression(String.join(", ", projected))
                    .scanIndexForward(false)
                    .limit(limit - runs.size())
                    .exclusiveStartKey(startKey)
                    .build());
            page.items().forEach(item -> runs.add(RunItems.summary(item)));
            startKey =
                    page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (startKey != null && runs.size() < limit);
        return runs;
    }

    /** Up to {@code limit} runs of any status, newest first: one index query per status, merged. */
    public List<RunSummary> listRecent(int limit) {
        List<RunSummary> runs = new ArrayList<>();
        for (RunStatus status : RunStatus.values()) {
            runs.addAll(listByStatus(status, limit));
        }
        runs.sort(Comparator.comparing(RunSummary::createdAt).reversed().thenComparing(RunSummary::runId));
        return List.copyOf(runs.subList(0, Math.min(limit, runs.size())));
    }

    private PutItemRequest.Builder conditionalPut(Map<String, AttributeValue> item) {
        return PutItemRequest.builder()
                .tableName(tableName)
                .item(item)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD);
    }

    /** The record a refused write found: from the refusal (ALL_OLD), else read again. */
    private RunRecord storedRecord(ConditionalCheckFailedException refused, String runId) {
        if (refused.hasItem() && !refused.item().isEmpty()) {
            return RunItems.run(refused.item());
        }
        return get(runId);
    }

    /** The statuses from which a run may move to {@code next} (always including {@code next}). */
    private static List<RunStatus> predecessors(RunStatus next) {
        return Arrays.stream(RunStatus.values())
                .filter(from -> from.canMoveTo(next))
                .toList();
    }

    private static void requireSameRun(RunRecord expected, RunRecord updated) {
        if (!expected.runId().equals(updated.runId())
                || !expected.specHash().equals(updated.specHash())
                || !expected.specJson().equals(updated.specJson())
                || !expected.createdAt().equals(updated.createdAt())) {
            throw new IllegalArgumentException("run " + expected.runId()
                    + ": a replacement must keep the run's id, spec and creation time (got run "
                    + updated.runId() + " created " + updated.createdAt() + ")");
        }
    }

    /** Full jitter: a random pause up to min(cap, base × 2^(attempt-1)). */
    private static void backOff(int attempt) {
        long ceiling = Math.min(BACKOFF_CAP_MILLIS, BACKOFF_BASE_MILLIS << Math.min(attempt - 1, 20));
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(ceiling + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while retrying an update", e);
        }
    }
}
