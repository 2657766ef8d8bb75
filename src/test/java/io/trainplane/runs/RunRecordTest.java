package io.trainplane.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunRecordTest {
    private static final Instant T0 = Instant.parse("2025-07-01T12:00:00.123456789Z");

    @Test
    void aNewRunIsPendingAtVersionOne() {
        RunRecord run = RunRecord.newRun("r1", "{\"a\":1}", "arn:exec", T0);
        assertThat(run.status()).isEqualTo(RunStatus.PENDING);
        assertThat(run.phase()).isEqualTo(RunRecord.INITIAL_PHASE);
        assertThat(run.version()).isEqualTo(1);
        assertThat(run.specHash()).isEqualTo(SpecHash.of("{\"a\":1}")).hasSize(64);
        assertThat(run.resources()).isEqualTo(RunResources.NONE);
        assertThat(run.metrics()).isEmpty();
        assertThat(run.error()).isNull();
        assertThat(run.createdAt()).isEqualTo(T0).isEqualTo(run.updatedAt());
    }

    @Test
    void specHashIsSha256OfTheJsonString() {
        assertThat(SpecHash.of("")).isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assertThat(SpecHash.of("{\"a\":1}")).isNotEqualTo(SpecHash.of("{\"a\": 1}"));
    }

    @Test
    void withersChangeOneFieldAndCopyTheMaps() {
        RunRecord run = RunRecord.newRun("r1", "{}", null, T0);
        RunRecord changed = run.withPhase(RunPhase.CLUSTER)
                .withExecutionArn("arn:x")
                .withResource(RunResources.EKS_CLUSTER, "tp-r1")
                .withResource(RunResources.FILE_SYSTEM, "fs-1")
                .withoutResource(RunResources.FILE_SYSTEM)
                .withMetric("accuracy", 0.9)
                .withError(new RunError("Train", "Terminal", "boom", "tail"));
        assertThat(changed)
                .isEqualTo(new RunRecord(
                        "r1",
                        "{}",
                        run.specHash(),
                        RunStatus.PENDING,
                        RunPhase.CLUSTER,
                        "arn:x",
                        RunResources.NONE.with(RunResources.EKS_CLUSTER, "tp-r1"),
                        Map.of("accuracy", 0.9),
                        new RunError("Train", "Terminal", "boom", "tail"),
                        T0,
                        T0,
                        1));
        assertThat(run.resources()).isEqualTo(RunResources.NONE);
        assertThat(changed.withMetrics(Map.of("loss", 0.1)).metrics()).containsExactly(Map.entry("loss", 0.1));
        assertThat(changed.withMetrics(null).metrics()).isEmpty();
    }

    @Test
    void resourcesAreTypedImmutableAndInDeclarationOrder() {
        List<String> opened = new ArrayList<>(List.of("fsmt-2", "fsmt-1"));
        RunResources resources = RunResources.NONE
                .with(RunResources.MOUNT_TARGETS_OPENED, opened)
                .with(RunResources.CLEANUP_STARTED, T0)
                .with(RunResources.FILE_SYSTEM_ADOPTED, true)
                .with(RunResources.EKS_CLUSTER, "tp-r1");
        opened.add("fsmt-3");
        assertThat(resources.list(RunResources.MOUNT_TARGETS_OPENED)).containsExactly("fsmt-2", "fsmt-1");
        assertThat(resources.get(RunResources.CLEANUP_STARTED)).contains(T0);
        assertThat(resources.isTrue(RunResources.FILE_SYSTEM_ADOPTED)).isTrue();
        assertThat(resources.asMap().keySet())
                .containsExactly(
                        "eks/cluster", "efs/file-system-adopted", "efs/mount-targets-opened", "cleanup/started");
        assertThatThrownBy(() -> resources.asMap().put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(
                        () -> resources.list(RunResources.MOUNT_TARGETS_OPENED).add("x"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(resources
                        .without(RunResources.CLEANUP_STARTED, RunResources.EKS_CLUSTER)
                        .asMap())
                .containsOnlyKeys("efs/file-system-adopted", "efs/mount-targets-opened");
        assertThat(new RunRecord("r1", "{}", "h", RunStatus.PENDING, null, null, null, null, null, T0, T0, 1)
                        .resources())
                .isEqualTo(RunResources.NONE);
    }

    @Test
    void phasesAreStoredByTheirLowerCaseNames() {
        assertThat(RunPhase.TRAIN.label()).isEqualTo("train");
        for (RunPhase phase : RunPhase.recorded()) {
            assertThat(RunPhase.ofLabel(phase.label())).isEqualTo(phase);
        }
        assertThat(RunPhase.recorded())
                .extracting(RunPhase::label)
                .containsExactly("start", "cluster", "data", "train", "evaluate", "cleanup");
        assertThatThrownBy(() -> RunPhase.ofLabel("volume")).hasMessageContaining("cleanup");
    }

    @Test
    void metricsMustBeFinite() {
        RunRecord run = RunRecord.newRun("r1", "{}", null, T0);
        assertThatThrownBy(() -> run.withMetric("loss", Double.NaN))
                .hasMessageContaining("r1")
                .hasMessageContaining("loss");
        assertThatThrownBy(() -> run.withMetric("loss", Double.POSITIVE_INFINITY))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(run.withMetric("x", -0.0).metrics().get("x")).isEqualTo(0.0);
    }

    @Test
    void nullsAreRefused() {
        Map<String, Double> metrics = new HashMap<>();
        metrics.put("loss", null);
        assertThatThrownBy(() ->
                        new RunRecord("r1", "{}", "h", RunStatus.PENDING, null, null, null, metrics, null, T0, T0, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("r1");
        assertThatThrownBy(() -> RunResources.NONE.with(RunResources.NAMESPACE, null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void theLogTailKeepsItsEnd() {
        String log = "x".repeat(RunError.MAX_LOG_TAIL) + "the end";
        RunError error = new RunError("Train", "Terminal", "cause", log);
        assertThat(error.logTail()).hasSize(RunError.MAX_LOG_TAIL).endsWith("the end");
    }

    @Test
    void isoTimeIsFixedWidthSoStringOrderIsTimeOrder() {
        Instant whole = Instant.parse("2025-07-01T12:00:00Z");
        Instant half = Instant.parse("2025-07-01T12:00:00.5Z");
        assertThat(IsoTime.format(whole)).isEqualTo("2025-07-01T12:00:00.000000000Z");
        assertThat(IsoTime.format(whole)).isLessThan(IsoTime.format(half));
        assertThat(IsoTime.parse(IsoTime.format(T0))).isEqualTo(T0);
    }

    @Test
    void aLostEventIsNotedOncePerDetailTypeAndStep() {
        RunRecord run = RunRecord.newRun("r1", "{}", null, T0);
        LostEvent started = new LostEvent("Run Started", "StartRun", "refused", T0);
        RunRecord noted = run.withLostEvent(started)
                .withLostEvent(new LostEvent("Run Started", "StartRun", "again", T0.plusSeconds(5)))
                .withLostEvent(new LostEvent("Run Failed", "FinishRun", null, T0));
        assertThat(noted.lostEvents()).extracting(LostEvent::detailType).containsExactly("Run Started", "Run Failed");
        assertThat(noted.lostEvents().get(0).error()).isEqualTo("refused");
        assertThat(noted.lostEvents().get(1).error()).isEqualTo("unknown");
        assertThat(noted.withPhase(RunPhase.DATA).withStatus(RunStatus.FAILED).lostEvents())
                .isEqualTo(noted.lostEvents());
        assertThat(run.lostEvents()).isEmpty();
        assertThat(started.warning()).isEqualTo("event 'Run Started' from StartRun was not published: refused");
    }

    @Test
    void theFullCauseNamesWhatCleanupLeftAndWhatRemovesIt() {
        CleanupFailure byJanitor = new CleanupFailure(
                "CleanupFailed",
                "EFS volume: refused",
                List.of(Leftover.of("efs:file-system/fs-1", Leftover.JANITOR)),
                "trainplane cleanup r1 --stack s");
        RunError error = new RunError("CheckVolume", "EfsException", "boom", null, byJanitor);
        assertThat(error.fullCause())
                .startsWith("boom — Cleanup gave up (CleanupFailed); left behind: efs:file-system/fs-1.")
                .contains("janitor")
                .endsWith("trainplane cleanup r1 --stack s");
        assertThat(error.withCleanup(null).fullCause()).isEqualTo("boom");
        CleanupFailure byCommand = new CleanupFailure(
                "CleanupTimedOut",
                null,
                List.of(Leftover.of("kubernetes:Namespace/tp-r1", Leftover.COMMAND)),
                "trainplane cleanup r1 --stack s");
        assertThat(byCommand.janitorRemovesAll()).isFalse();
        assertThat(new RunError(null, null, null, null, byCommand).fullCause())
                .startsWith("Cleanup gave up (CleanupTimedOut)")
                .contains("Nothing deletes it automatically");
    }

    @Test
    void aLeftoverIsKindSlashId() {
        Leftover nodegroup = Leftover.of("eks:nodegroup/tp-r1-eks/tp-r1-nodes", Leftover.JANITOR);
        assertThat(nodegroup.kind()).isEqualTo("eks:nodegroup");
        assertThat(nodegroup.id()).isEqualTo("tp-r1-eks/tp-r1-nodes");
        assertThat(nodegroup.ref()).isEqualTo("eks:nodegroup/tp-r1-eks/tp-r1-nodes");
        assertThatThrownBy(() -> Leftover.of("efs:file-system", Leftover.JANITOR))
                .hasMessageContaining("kind/id");
        assertThatThrownBy(() -> Leftover.of("efs:file-system/fs-1", "someone")).hasMessageContaining("janitor");
    }
}
