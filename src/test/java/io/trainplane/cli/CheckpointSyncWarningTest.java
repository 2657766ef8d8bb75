package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A checkpoint sidecar that could not sync is a warning status shows; status names where the checkpoints go. */
class CheckpointSyncWarningTest {
    static final Instant T0 = Instant.parse("2026-11-24T00:00:00Z");

    @Test
    void statusSaysTheCheckpointsWereNotSyncedAndWhy() {
        RunRecord run = new RunRecord(
                "r1",
                "{\"output\": {\"s3Uri\": \"s3://bucket/runs/r1/\"}}",
                "h",
                RunStatus.SUCCEEDED,
                null,
                null,
                RunResources.NONE.with(RunResources.CHECKPOINT_SYNC_FAILED, "Unable to locate credentials."),
                null,
                null,
                T0,
                T0,
                1);
        StringWriter text = new StringWriter();
        LeftBehind.printWarnings(new PrintWriter(text, true), run, 12);

        assertThat(text.toString()).contains("warning:    checkpoints not synced to S3: Unable to locate credentials.");
        assertThat(LeftBehind.warnings(run))
                .containsExactly("checkpoints not synced to S3: Unable to locate credentials.");
        assertThat(StatusCommand.outputJson(run).path("checkpoints").asText())
                .isEqualTo("s3://bucket/runs/r1/checkpoints/");
    }
}
