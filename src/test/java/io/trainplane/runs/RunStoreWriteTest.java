package io.trainplane.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.local.asl.SimulatedClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Conditional writes: create, replace, update and the transition table enforced by DynamoDB. */
class RunStoreWriteTest {
    private static final String SPEC = "{\"runId\":\"r1\",\"training\":{\"epochs\":10}}";
    private static LocalDynamo local;
    private SimulatedClock clock;
    private CountingDynamoDb dynamo;
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
        clock = new SimulatedClock(Instant.parse("2025-07-01T12:00:00.000000001Z"));
        dynamo = new CountingDynamoDb(local.client());
        store = new RunStore(dynamo, local.freshTable(), clock);
    }

    @Test
    void createStoresANewPendingRun() {
        RunRecord run = store.create("r1", SPEC, "arn:aws:states:eu-west-1:1:execution:TrainingPipeline:r1");
        assertThat(run.status()).isEqualTo(RunStatus.PENDING);
        assertThat(run.version()).isEqualTo(1);
        assertThat(run.createdAt()).isEqualTo(clock.instant());
        assertThat(store.get("r1")).isEqualTo(run);
        assertThat(store.find("nope")).isEmpty();
        assertThatThrownBy(() -> store.get("nope"))
                .isInstanceOf(RunNotFoundException.class)
                .hasMessageContaining("nope");
    }

    @Test
    void createWithTheSameSpecReturnsTheStoredRecordUnchanged() {
        store.create("r1", SPEC, "arn:1");
        RunRecord moved =
                store.update("r1", r -> r.withStatus(RunStatus.PROVISIONING).withPhase(RunPhase.CLUSTER));
        clock.advance(Duration.ofMinutes(5));

        RunRecord again = store.create("r1", SPEC, "arn:1");

        assertThat(again).isEqualTo(moved);
        assertThat(again.version()).isEqualTo(2);
        assertThat(store.get("r1")).isEqualTo(moved);
    }

    @Test
    void createWithAnotherSpecIsAConflictAndChangesNothing() {
        RunRecord stored = store.create("r1", SPEC, "arn:1");
        clock.advance(Duration.ofSeconds(1));
        int getsBefore = dynamo.gets.get();

        assertThatThrownBy(() -> store.create("r1", SPEC.replace("10", "20"), "arn:2"))
                .isInstanceOfSatisfying(RunConflictException.class, e -> {
                    assertThat(e.existing()).isEqualTo(stored);
                    assertThat(e.runId()).isEqualTo("r1");
                    assertThat(e).hasMessageContaining("r1").hasMessageContaining(stored.specHash());
                });
        assertThat(dynamo.gets.get())
                .as("the stored record came from ALL_OLD, not a read")
                .isEqualTo(getsBefore);
        assertThat(store.get("r1")).isEqualTo(stored);
    }

    @Test
    void replaceWithAStaleVersionCarriesTheCurrentRecord() {
        RunRecord v1 = store.create("r1", SPEC, null);
        clock.advance(Duration.ofSeconds(30));
        RunRecord v2 = store.replace(v1, v1.withStatus(RunStatus.PROVISIONING).withPhase(RunPhase.CLUSTER));
        assertThat(v2.version()).isEqualTo(2);
        assertThat(v2.updatedAt()).isEqualTo(clock.instant());
        assertThat(v2.createdAt()).isEqualTo(v1.createdAt());
        int getsBefore = dynamo.gets.get();

        assertThatThrownBy(() -> store.replace(v1, v1.withPhase(RunPhase.DATA)))
                .isInstanceOfSatisfying(VersionConflictException.class, e -> {
                    assertThat(e.current()).isEqualTo(v2);
                    assertThat(e.expectedVersion()).isEqualTo(1);
                    assertThat(e).hasMessageContaining("r1");
                });
        assertThat(dynamo.gets.get())
                .as("the current record came from ALL_OLD, not a read")
                .isEqualTo(getsBefore);
        assertThat(store.get("r1")).isEqualTo(v2);
    }

    @Test
    void aStaleItemInTheRefusalIsReadAgainNotMistakenForAnIllegalTransition() {
        RunRecord v1 = store.create("r1", SPEC, null);
        RunRecord v2 = store.replace(v1, v1.withPhase(RunPhase.CLUSTER));
        store.replace(v2, v2.withPhase(RunPhase.DATA));
        // The refusal of a write based on v2 comes back with v2 itself, which the condition would have accepted.
        dynamo.staleAllOld.set(RunItems.runItem(v2));

        assertThatThrownBy(() -> store.replace(v2, v2.withPhase(RunPhase.TRAIN)))
                .isInstanceOfSatisfying(VersionConflictException.class, e -> {
                    assertThat(e.current().version()).isEqualTo(3);
                    assertThat(e.current().phase()).isEqualTo(RunPhase.DATA);
                });
    }

    @Test
    void replaceOfAMissingRunIsNotFound() {
        RunRecord ghost = RunStatusTest.record("ghost", RunStatus.PENDING);
        assertThatThrownBy(() -> store.replace(ghost, ghost.withPhase(RunPhase.EVALUATE)))
                .isInstanceOf(RunNotFoundException.class);
    }

    @Test
    void replaceKeepsTheRunsIdentity() {
        RunRecord v1 = store.create("r1", SPEC, null);
        RunRecord other = new RunRecord(
                "r2",
                v1.specJson(),
                v1.specHash(),
                v1.status(),
                null,
                null,
                null,
                null,
                null,
                v1.createdAt(),
                v1.updatedAt(),
                1);
        assertThatThrownBy(() -> store.replace(v1, other)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void updateRetriesThroughAConcurrentWrite() {
        RunRecord v1 = store.create("r1", SPEC, null);
        AtomicInteger applied = new AtomicInteger();

        RunRecord result = store.update("r1", r -> {
            if (applied.getAndIncrement() == 0) {
                // Another writer gets in between this read and this write.
                store.replace(v1, v1.withPhase(RunPhase.CLUSTER));
            }
            return r.withMetric("n", r.metrics().getOrDefault("n", 0.0) + 1);
        });

        assertThat(applied.get()).isEqualTo(2);
        assertThat(dynamo.refusedPuts.get()).isEqualTo(1);
        assertThat(result.version()).isEqualTo(3);
        assertThat(result.phase()).isEqualTo(RunPhase.CLUSTER);
        assertThat(result.metrics()).containsEntry("n", 1.0);
        assertThat(store.get("r1")).isEqualTo(result);
    }

    @Test
    void updateThatChangesNothingWritesNothing() {
        RunRecord v1 = store.create("r1", SPEC, null);
        int putsBefore = dynamo.puts.get();
        assertThat(store.update("r1", r -> r.withStatus(RunStatus.PENDING))).isEqualTo(v1);
        assertThat(dynamo.puts.get()).isEqualTo(putsBefore);
    }

    @Test
    void anIllegalTransitionIsNotRetried() {
        store.create("r1", SPEC, null);
        RunRecord done = store.update("r1", r -> r.withStatus(RunStatus.CLEANING_UP));
        done = store.update("r1", r -> r.withStatus(RunStatus.SUCCEEDED));
        AtomicInteger applied = new AtomicInteger();

        assertThatThrownBy(() -> store.update("r1", r -> {
                    applied.incrementAndGet();
                    return r.withStatus(RunStatus.TRAINING);
                }))
                .isInstanceOf(IllegalTransitionException.class);
        assertThat(applied.get()).isEqualTo(1);
        assertThat(store.get("r1")).isEqualTo(done);
    }

    @Test
    void aTerminalRecordIsNeverReopenedEvenByAForgedReplace() {
        store.create("r1", SPEC, null);
        RunRecord succeeded = store.update("r1", r -> r.withStatus(RunStatus.CLEANING_UP));
        succeeded = store.update("r1", r -> r.withStatus(RunStatus.SUCCEEDED).withMetric("accuracy", 0.8));

        // Honest attempts are refused before any write.
        RunRecord honest = succeeded;
        assertThatThrownBy(() -> store.replace(honest, honest.withStatus(RunStatus.FAILED)))
                .isInstanceOf(IllegalTransitionException.class);

        // A forged "expected" claiming the run is still running, at the right version, asking for a move
        // that is legal from the claimed status: the check in Java passes, DynamoDB's condition refuses.
        for (RunStatus claimed : new RunStatus[] {RunStatus.TRAINING, RunStatus.CLEANING_UP}) {
            RunRecord forged = new RunRecord(
                    "r1",
                    succeeded.specJson(),
                    succeeded.specHash(),
                    claimed,
                    RunPhase.TRAIN,
                    null,
                    null,
                    null,
                    null,
                    succeeded.createdAt(),
                    succeeded.updatedAt(),
                    succeeded.version());
            for (RunStatus next : RunStatus.values()) {
                if (next == RunStatus.SUCCEEDED || !claimed.canMoveTo(next)) {
                    continue;
                }
                assertThatThrownBy(() -> store.replace(forged, forged.withStatus(next)))
                        .isInstanceOfSatisfying(IllegalTransitionException.class, e -> {
                            assertThat(e.from()).isEqualTo(RunStatus.SUCCEEDED);
                            assertThat(e.to()).isEqualTo(next);
                        });
            }
        }
        assertThat(store.get("r1")).isEqualTo(succeeded);

        // Staying terminal is allowed (an idempotent retry of the last step may still write).
        RunRecord again = store.replace(succeeded, succeeded.withPhase(RunPhase.CLEANUP));
        assertThat(again.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(again.version()).isEqualTo(succeeded.version() + 1);
    }

    /** Every pair (stored, next), with a forged "expected" so only the condition in DynamoDB decides. */
    @Test
    void theConditionExpressionEnforcesTheWholeTable() {
        for (RunStatus from : RunStatus.values()) {
            for (RunStatus to : RunStatus.values()) {
                String runId = "r-" + from + "-" + to;
                RunRecord created = store.create(runId, SPEC, null);
                RunRecord stored =
                        from == RunStatus.PENDING ? created : store.replace(created, created.withStatus(from));
                RunRecord forged = new RunRecord(
                        runId,
                        stored.specJson(),
                        stored.specHash(),
                        to,
                        null,
                        null,
                        null,
                        null,
                        null,
                        stored.createdAt(),
                        stored.updatedAt(),
                        stored.version());
                if (RunStatusTest.expectedAllowed(from, to)) {
                    assertThat(store.replace(forged, forged.withPhase(RunPhase.CLEANUP))
                                    .status())
                            .isEqualTo(to);
                } else {
                    assertThatThrownBy(() -> store.replace(forged, forged.withPhase(RunPhase.CLEANUP)))
                            .as("%s -> %s", from, to)
                            .isInstanceOf(IllegalTransitionException.class);
                    assertThat(store.get(runId)).isEqualTo(stored);
                }
            }
        }
    }

    @Test
    void aCleanupFailureAndLostEventsSurviveTheRoundTrip() {
        store.create("r1", SPEC, null);
        CleanupFailure cleanup = new CleanupFailure(
                "CleanupFailed",
                "EFS volume: refused",
                List.of(
                        Leftover.of("efs:file-system/fs-1", Leftover.JANITOR),
                        Leftover.of("efs:mount-target/fsmt-1", Leftover.JANITOR)),
                "trainplane cleanup r1 --stack s");
        LostEvent lost = new LostEvent("Run Started", "StartRun", "throttled", clock.instant());
        RunRecord written =
                store.update("r1", r -> r.withError(new RunError("CheckVolume", "EfsException", "boom", null, cleanup))
                        .withLostEvent(lost)
                        .withStatus(RunStatus.FAILED));

        RunRecord read = store.get("r1");
        assertThat(read).isEqualTo(written);
        assertThat(read.error().cleanup().refs()).containsExactly("efs:file-system/fs-1", "efs:mount-target/fsmt-1");
        assertThat(read.lostEvents()).containsExactly(lost);
        // A terminal record still takes a lost event (FinishRun publishes after ending the run).
        LostEvent late = new LostEvent("Run Failed", "FinishRun", "refused", clock.instant());
        assertThat(store.update("r1", r -> r.withLostEvent(late)).lostEvents()).containsExactly(lost, late);
    }

    @Test
    void aLostEventNotedWhileAnotherStepWritesTheRecordIsNotLost() {
        store.create("r1", SPEC, null);
        LostEvent lost = new LostEvent("Training Job Completed", "CheckTraining", "refused", clock.instant());
        AtomicInteger applications = new AtomicInteger();
        store.update("r1", r -> {
            if (applications.incrementAndGet() == 1) {
                // Another step writes between this read and this write.
                store.update("r1", other -> other.withMetric("accuracy", 0.9).withStatus(RunStatus.EVALUATING));
            }
            return r.withLostEvent(lost);
        });
        // And the other way round: a step's write that read the record before the lost event was noted.
        AtomicInteger second = new AtomicInteger();
        store.update("r1", r -> {
            if (second.incrementAndGet() == 1) {
                store.update(
                        "r1",
                        other -> other.withLostEvent(
                                new LostEvent("Model Evaluated", "CollectResults", "x", clock.instant())));
            }
            return r.withStatus(RunStatus.SUCCEEDED);
        });

        RunRecord run = store.get("r1");
        assertThat(applications.get())
                .as("the change was applied again on the newer record")
                .isEqualTo(2);
        assertThat(run.lostEvents())
                .extracting(LostEvent::detailType)
                .containsExactly("Training Job Completed", "Model Evaluated");
        assertThat(run.metrics()).containsEntry("accuracy", 0.9);
        assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
    }
}
