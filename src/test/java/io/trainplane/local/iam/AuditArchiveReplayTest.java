package io.trainplane.local.iam;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.cli.IamReport;
import io.trainplane.core.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The judge of the simulated account's IAM: every audit log the test phase archived (each
 * LocalCloud judged by template.yaml's policies writes one when it closes: the examples, the
 * fault and abort matrices, the safety net, the janitor) is replayed through iam-simulate, which
 * carries AWS's own action, resource and condition-key data. Every decision must agree and no
 * request may be malformed. Runs in its own surefire execution, after the test phase.
 */
class AuditArchiveReplayTest {
    /** Far fewer distinct calls than this means the test phase did not archive what it should. */
    static final int FEWEST_CALLS = 1_000;

    @Test
    void everyArchivedCallGetsTheDecisionIamSimulateGives() throws Exception {
        Path archive = Path.of(System.getProperty(AuditLog.ARCHIVE_PROPERTY, "target/iam-audit"));
        Path[] logs;
        try (Stream<Path> files = Files.isDirectory(archive) ? Files.list(archive) : Stream.empty()) {
            logs = files.filter(f -> f.toString().endsWith(".jsonl")).sorted().toArray(Path[]::new);
        }
        assertThat(logs)
                .as("audit logs archived in %s by the test phase", archive)
                .isNotEmpty();
        Path policies = Files.createTempFile("trainplane-iam", ".json");
        Files.writeString(policies, Json.write(IamReport.json(StackTemplate.local())));

        IamSimulate.Replay replay = IamSimulate.installed().replay(policies, logs);
        System.out.printf(
                "%d audit logs: iam-simulate: %d calls, %d agree, %d disagree, %d malformed%n",
                logs.length, replay.calls(), replay.agree(), replay.disagree(), replay.malformed());

        assertThat(replay.disagreements()).as(replay.output()).isEmpty();
        assertThat(replay.malformedRequests()).as(replay.output()).isEmpty();
        assertThat(replay.calls()).isGreaterThan(FEWEST_CALLS);
    }
}
