package io.trainplane.runs;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.local.asl.SimulatedClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Round trips, the timeline and the listings through the status index. */
class RunStoreReadTest {
    private static final String SPEC = "{\"runId\":\"r1\",\"note\":\"caf\u00e9 \u2713 \\\"quoted\\\"\\n\"}";
    private static LocalDynamo local;
    private SimulatedClock clock;
    private String table;
    private RunStore store;

    @BeforeAll
    static void startDynamo() {
        local = LocalDynamo.start();
    }

    @AfterAll
    static void stopDynamo() {
        local.close();
    }

    @BeforeEach
    void freshTable() {
        clock = new SimulatedClock(Instant.parse("2025-07-01T12:00:00.123456789Z"));
        table = local.freshTable();
        store = new RunStore(local.client(), table, clock);
    }

    @Test
    void everyFieldRoundTrips() {
        RunRecord created =
                store.create("r1", SPEC, "arn:aws:states:eu-west-1:123456789012:execution:TrainingPipeline:r1");
        clock.advance(Duration.ofNanos(1_000_000_001));
        RunRecord full = store.update("r1", r -> r.withStatus(RunStatus.FAILED)
                .withPhase(RunPhase.TRAIN)
                .withResource(RunResources.EKS_CLUSTER, "tp-r1")
                .withResource(RunResources.MOUNT_TARGETS_OPENED, List.of("fsmt-1", "fsmt-2"))
                .withResource(RunResources.FILE_SYSTEM_ADOPTED, true)
                .withResource(RunResources.CLEANUP_STARTED, Instant.parse("2025-07-01T12:00:00.5Z"))
                .withResource(RunResources.CLEANUP_DELETED, List.of())
                .withResource(RunResources.NAMESPACE, "")
                .withMetrics(Map.of(
                        "accuracy",
                        0.7312,
                        "loss",
                        -3.5,
                        "tiny",
                        1.0E-5,
                        "huge",
                        1.0E20,
                        "precise",
                        123456789.12345679,
                        "third",
                        1.0 / 3,
                        "zero",
                        0.0,
                        "edge",
                        1.0E-130))
                .withError(new RunError(
                        "CheckTraining",
                        "io.trainplane.Terminal",
                        "pod worker-0 OOMKilled",
                        "line 1\nline 2 \u00e9\n")));

        assertThat(store.get("r1")).isEqualTo(full);
        assertThat(full.createdAt()).isEqualTo(created.createdAt());
        assertThat(full.updatedAt()).isEqualTo(Instant.parse("2025-07-01T12:00:01.123456790Z"));
        assertThat(full.version()).isEqualTo(2);
        assertThat(full.specJson()).isEqualTo(SPEC);

        RunRecord partialError = store.update("r1", r -> r.withError(new RunError("Train", null, null, null)));
        assertThat(store.get("r1")).isEqualTo(partialError);
        assertThat(store.get("r1").error()).isEqualTo(new RunError("Train", null, null, null));
    }

    @Test
    void nullsAreAbsentAttributesAndEmptyMapsStayEmpty() {
        RunRecord created = store.create("r1", SPEC, null);
        RunRecord bare = store.update("r1", r -> r.withPhase(null));

        assertThat(store.get("r1")).isEqualTo(bare);
        assertThat(bare.executionArn()).isNull();
        assertThat(bare.phase()).isNull();
        assertThat(bare.error()).isNull();
        assertThat(bare.resources().isEmpty()).isTrue();
        assertThat(bare.metrics()).isEmpty();
        assertThat(created.phase()).isEqualTo(RunRecord.INITIAL_PHASE);

        Map<String, AttributeValue> item = local.client()
                .getItem(b -> b.tableName(table).key(RunItems.runKey("r1")).consistentRead(true))
                .item();
        assertThat(item).doesNotContainKeys("error", "phase", "executionArn");
        assertThat(item.get("resources").m()).isEmpty();
        assertThat(item.get("metrics").m()).isEmpty();
        assertThat(item.get("version").n()).isEqualTo("2");
        assertThat(item.get("createdAt").s()).isEqualTo("2025-07-01T12:00:00.123456789Z");
    }

    @Test
    void resourcesAreStoredTyped() {
        store.create("r1", SPEC, null);
        store.update("r1", r -> r.withResource(RunResources.FILE_SYSTEM_ADOPTED, true)
                .withResource(RunResources.MOUNT_TARGETS_OPENED, List.of("fsmt-1", "fsmt-2"))
                .withResource(RunResources.CLEANUP_STARTED, Instant.parse("2026-03-01T10:00:00Z"))
                .withResource(RunResources.EKS_CLUSTER, "tp-r1"));

        Map<String, AttributeValue> resources = local.client()
                .getItem(b -> b.tableName(table).key(RunItems.runKey("r1")).consistentRead(true))
                .item()
                .get("resources")
                .m();
        assertThat(resources)
                .containsOnlyKeys(
                        "eks/cluster", "efs/file-system-adopted", "efs/mount-targets-opened", "cleanup/started");
        assertThat(resources.get("eks/cluster").s()).isEqualTo("tp-r1");
        assertThat(resources.get("efs/file-system-adopted").bool()).isTrue();
        assertThat(resources.get("efs/mount-targets-opened").l())
                .extracting(AttributeValue::s)
                .containsExactly("fsmt-1", "fsmt-2");
        assertThat(resources.get("cleanup/started").s()).isEqualTo("2026-03-01T10:00:00.000000000Z");
    }

    /** A record as versions before typed resources wrote it: every resource a string, deletions one key each. */
    @Test
    void recordsWrittenBeforeResourcesWereTypedAreReadAndWrittenBackTyped() {
        RunRecord created = store.create("old", SPEC, null);
        Map<String, AttributeValue> item = new java.util.HashMap<>(RunItems.runItem(created));
        item.put("phase", AttributeValue.fromS("cleanup"));
        item.put(
                "resources",
                AttributeValue.fromM(Map.of(
                        "efs/file-system", AttributeValue.fromS("fs-1"),
                        "efs/file-system-adopted", AttributeValue.fromS("true"),
                        "efs/mount-target-group", AttributeValue.fromS("sg-1"),
                        "efs/mount-targets-opened", AttributeValue.fromS("fsmt-1 fsmt-2"),
                        "cleanup/started", AttributeValue.fromS("2026-03-01T10:00:00Z"),
                        "cleanup/finished", AttributeValue.fromS("2026-03-01T10:20:00.5Z"),
                        "cleanup/deleted/eks/cluster", AttributeValue.fromS("tp-old-eks"),
                        "cleanup/deleted/eks/nodegroup", AttributeValue.fromS("tp-old-nodes"),
                        "cleanup/deleted/kubernetes/namespace", AttributeValue.fromS("tp-old"))));
        local.client().putItem(b -> b.tableName(table).item(item));

        RunRecord old = store.get("old");
        assertThat(old.phase()).isEqualTo(RunPhase.CLEANUP);
        RunResources r = old.resources();
        assertThat(r.get(RunResources.FILE_SYSTEM)).contains("fs-1");
        assertThat(r.isTrue(RunResources.FILE_SYSTEM_ADOPTED)).isTrue();
        assertThat(r.get(RunResources.MOUNT_TARGET_GROUP)).contains("sg-1");
        assertThat(r.list(RunResources.MOUNT_TARGETS_OPENED)).containsExactly("fsmt-1", "fsmt-2");
        assertThat(r.get(RunResources.CLEANUP_STARTED)).contains(Instant.parse("2026-03-01T10:00:00Z"));
        assertThat(r.get(RunResources.CLEANUP_FINISHED)).contains(Instant.parse("2026-03-01T10:20:00.5Z"));
        assertThat(r.list(RunResources.CLEANUP_DELETED))
                .containsExactly("kubernetes:Namespace/tp-old", "eks:nodegroup/tp-old-nodes", "eks:cluster/tp-old-eks");

        RunRecord rewritten = store.update("old", rec -> rec.withoutResource(RunResources.CLEANUP_STARTED));
        Map<String, AttributeValue> stored = local.client()
                .getItem(b -> b.tableName(table).key(RunItems.runKey("old")).consistentRead(true))
                .item()
                .get("resources")
                .m();
        assertThat(stored).doesNotContainKeys("cleanup/started", "cleanup/deleted/eks/cluster");
        assertThat(stored.get("efs/file-system-adopted").bool()).isTrue();
        assertThat(stored.get("cleanup/deleted").l()).hasSize(3);
        assertThat(store.get("old")).isEqualTo(rewritten);
    }

    @Test
    void stepsComeBackInTimeOrderAndAddingIsIdempotent() {
        store.create("r1", SPEC, null);
        Instant t0 = Instant.parse("2025-07-01T12:00:00Z");
        StepEntry start = new StepEntry("StartRun", t0, t0.plusMillis(800), "succeeded", null);
        StepEntry create = StepEntry.started("CreateCluster", t0.plusSeconds(1));
        StepEntry check = new StepEntry(
                "CheckCluster", t0.plusSeconds(1).plusNanos(500), t0.plusSeconds(2), "retry", "cluster CREATING");
        StepEntry sameInstant = new StepEntry("AnotherState", t0.plusSeconds(1), t0.plusSeconds(3), "succeeded", "x");

        store.addStep("r1", check);
        store.addStep("r1", create);
        store.addStep("r1", start);
        store.addStep("r1", sameInstant);
        store.addStep("r1", start);
        store.addStep("r1", create);

        assertThat(store.steps("r1")).containsExactly(start, sameInstant, create, check);

        // An open step is completed by writing it again with its end; a late retry of its start changes nothing.
        StepEntry created = create.ended(t0.plusSeconds(40), "succeeded", "cluster tp-r1");
        store.addStep("r1", created);
        store.addStep("r1", create);
        assertThat(store.steps("r1")).containsExactly(start, sameInstant, created, check);

        assertThat(store.steps("other")).isEmpty();
        assertThat(store.get("r1").version()).isEqualTo(1);
    }

    @Test
    void listByStatusIsNewestFirstThroughTheIndex() {
        for (int i = 1; i <= 5; i++) {
            store.create("run-" + i, SPEC, null);
            clock.advance(Duration.ofMinutes(1));
        }
        store.update("run-2", r -> r.withStatus(RunStatus.TRAINING));
        store.update("run-4", r -> r.withStatus(RunStatus.TRAINING).withPhase(RunPhase.TRAIN));
        store.addStep("run-1", StepEntry.started("StartRun", clock.instant()));

        assertThat(ids(store.listByStatus(RunStatus.PENDING, 10))).containsExactly("run-5", "run-3", "run-1");
        assertThat(ids(store.listByStatus(RunStatus.PENDING, 2))).containsExactly("run-5", "run-3");
        assertThat(ids(store.listByStatus(RunStatus.TRAINING, 10))).containsExactly("run-4", "run-2");
        assertThat(store.listByStatus(RunStatus.SUCCEEDED, 10)).isEmpty();

        RunSummary run4 = store.listByStatus(RunStatus.TRAINING, 1).getFirst();
        assertThat(run4).isEqualTo(store.get("run-4").summary());
        assertThat(run4.phase()).isEqualTo(RunPhase.TRAIN);
    }

    @Test
    void theActualCostRoundTripsAndTheListingCarriesItsTotalWithTheAccuracy() {
        store.create("r1", SPEC, null);
        RunCost cost = new RunCost(
                "us-east-1 prices of 2026-11-01",
                0.57,
                List.of(
                        new RunCost.Line("EC2 2 × c5.2xlarge", 0.8, "node-hour", 0.34, 0.272),
                        new RunCost.Line("EC2 1 × x9.unknown", 0.4, "node-hour", null, null)),
                0.272,
                List.of("nodes: from their creation request to the end of cleanup"));
        RunRecord ended = store.update("r1", r -> r.withMetric("accuracy", 0.7311)
                .withStatus(RunStatus.SUCCEEDED)
                .withCost(cost));
        assertThat(store.get("r1").cost()).isEqualTo(cost);
        assertThat(store.get("r1")).isEqualTo(ended);
        assertThat(cost.unpriced()).containsExactly("EC2 1 × x9.unknown");
        RunSummary listed = store.listByStatus(RunStatus.SUCCEEDED, 1).getFirst();
        assertThat(listed).isEqualTo(ended.summary());
        assertThat(listed.actualCost()).isEqualTo(0.272);
        assertThat(listed.accuracy()).isEqualTo(0.7311);
        // A run not ended has neither.
        store.create("r2", SPEC, null);
        RunSummary running = store.listByStatus(RunStatus.PENDING, 1).getFirst();
        assertThat(running.actualCost()).isNull();
        assertThat(running.accuracy()).isNull();
    }

    @Test
    void listRecentMergesAllStatusesNewestFirst() {
        RunStatus[] statuses = {
            RunStatus.SUCCEEDED,
            RunStatus.PENDING,
            RunStatus.FAILED,
            RunStatus.TRAINING,
            RunStatus.PENDING,
            RunStatus.CANCELLED,
            RunStatus.CLEANING_UP
        };
        for (int i = 0; i < statuses.length; i++) {
            RunStatus status = statuses[i];
            store.create("run-" + i, SPEC, null);
            store.update("run-" + i, r -> r.withStatus(status));
            clock.advance(Duration.ofSeconds(10));
        }

        assertThat(ids(store.listRecent(3))).containsExactly("run-6", "run-5", "run-4");
        List<RunSummary> all = store.listRecent(100);
        assertThat(ids(all)).containsExactly("run-6", "run-5", "run-4", "run-3", "run-2", "run-1", "run-0");
        assertThat(all.get(0).status()).isEqualTo(RunStatus.CLEANING_UP);
        assertThat(all.get(6).status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void listingsPageThroughTheIndex() {
        String bigSpec = "{\"pad\":\"" + "x".repeat(200_000) + "\"}";
        for (int i = 0; i < 12; i++) {
            store.create("big-" + i, bigSpec, null);
            clock.advance(Duration.ofSeconds(1));
        }
        // 12 items of ~200 KB exceed a 1 MB query page: the listing must follow LastEvaluatedKey.
        CountingDynamoDb counting = new CountingDynamoDb(local.client());
        RunStore counted = new RunStore(counting, table, clock);
        assertThat(ids(counted.listByStatus(RunStatus.PENDING, 12)))
                .containsExactlyElementsOf(IntStream.iterate(11, i -> i - 1)
                        .limit(12)
                        .mapToObj(i -> "big-" + i)
                        .toList());
        assertThat(counting.queries.get()).as("pages").isGreaterThan(1);
        assertThat(counted.listRecent(11)).hasSize(11);
    }

    private static List<String> ids(List<RunSummary> runs) {
        return runs.stream().map(RunSummary::runId).toList();
    }
}
