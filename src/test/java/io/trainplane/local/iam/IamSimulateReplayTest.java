package io.trainplane.local.iam;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The judge itself, on hand-written audit logs: iam-simulate must share every decision of
 * {@code audit.jsonl} (one of each kind of request the simulated account logs), report each of
 * them as a disagreement once its decision is changed, and refuse each request of
 * {@code malformed.jsonl} for the reason written beside it here.
 */
class IamSimulateReplayTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path FIXTURES = Path.of("src/test/resources/iam-replay");
    private static final Path POLICIES = FIXTURES.resolve("policies.json");
    private static final Path AUDIT = FIXTURES.resolve("audit.jsonl");

    @Test
    void everyLoggedDecisionAgreesWithIamSimulate() throws Exception {
        List<ObjectNode> lines = lines(AUDIT);
        Set<String> decisions = new LinkedHashSet<>();
        lines.forEach(line -> decisions.add(line.get("decision").asText()));
        assertThat(decisions)
                .as("the fixture decides every way")
                .containsExactlyInAnyOrder(
                        Decision.Allowed.name(), Decision.ImplicitlyDenied.name(), Decision.ExplicitlyDenied.name());

        IamSimulate.Replay replay = IamSimulate.installed().replay(POLICIES, AUDIT);

        assertThat(replay.offenses()).as(replay.output()).isEmpty();
        assertThat(replay.calls()).as("repeated polls are counted, not dropped").isEqualTo(lines.size());
        assertThat(replay.agree()).isEqualTo(lines.size());
    }

    @Test
    void aWrongDecisionAmongRightOnesIsADisagreement(@TempDir Path dir) throws Exception {
        // ChangeRunClusters allows DeleteCluster only on clusters carrying the run tag: this one carries none.
        ObjectNode deleteUntagged = lines(AUDIT).stream()
                .filter(line -> line.get("action").asText().equals("eks:DeleteCluster")
                        && !line.get("role").isNull())
                .findFirst()
                .orElseThrow()
                .deepCopy()
                .put("decision", Decision.Allowed.name());
        deleteUntagged.putObject("context");
        Path wrong = write(dir.resolve("wrong.jsonl"), List.of(deleteUntagged));

        IamSimulate.Replay replay = IamSimulate.installed().replay(POLICIES, AUDIT, wrong);

        assertThat(replay.agree()).isEqualTo(lines(AUDIT).size());
        assertThat(replay.malformed()).isZero();
        assertThat(replay.disagree()).isEqualTo(1);
        assertThat(replay.at("wrong.jsonl", 1)).get().satisfies(offense -> {
            assertThat(offense.kind()).isEqualTo(IamSimulate.Kind.DISAGREE);
            assertThat(offense.text()).contains("eks:DeleteCluster", "logged Allowed, iam-simulate ImplicitlyDenied");
        });
    }

    @Test
    void everyDecisionChangedIsReportedAsADisagreement(@TempDir Path dir) throws Exception {
        List<ObjectNode> lines = lines(AUDIT);
        List<ObjectNode> changed = new ArrayList<>();
        for (ObjectNode line : lines) {
            changed.add(line.deepCopy()
                    .put(
                            "decision",
                            other(Decision.valueOf(line.get("decision").asText()))
                                    .name()));
        }
        Path log = write(dir.resolve("changed.jsonl"), changed);

        IamSimulate.Replay replay = IamSimulate.installed().replay(POLICIES, log);

        assertThat(replay.disagree()).as(replay.output()).isEqualTo(lines.size());
        assertThat(replay.agree()).isZero();
        assertThat(replay.malformed()).isZero();
        assertThat(replay.disagreements().stream()
                        .mapToInt(IamSimulate.Offense::count)
                        .sum())
                .isEqualTo(lines.size());
        assertThat(replay.disagreements())
                .as("the poll repeated three times is one request")
                .anySatisfy(offense -> assertThat(offense.count()).isEqualTo(3));
        for (IamSimulate.Offense offense : replay.disagreements()) {
            ObjectNode original = lines.get(Integer.parseInt(offense.location().replaceAll(".*:", "")) - 1);
            Decision logged = Decision.valueOf(original.get("decision").asText());
            assertThat(offense.text()).contains("logged " + other(logged) + ", iam-simulate " + logged);
        }
    }

    @Test
    void malformedRequestsAreReportedWithTheReason() throws Exception {
        Map<Integer, String> reasons = Map.of(
                1, "resource is not of a resource type eks:DescribeCluster takes (cluster*",
                2, "unknown action eks:DescribeClusters",
                3, "resource \"*\" for eks:DescribeCluster, which requires a resource",
                4, "eks:CreateCluster has no resource type: its resource must be \"*\"",
                5, "lists no aws:TagKeys for elasticfilesystem:DeleteFileSystem on file-system",
                6, "context keys not used by eks:DescribeCluster on this resource: eks:kubernetesVersion",
                7, "role JanitorRole is not in the policies file",
                8, "context key aws:RequestTag/trainplane:run-id takes one value",
                9, "not a JSON line");

        IamSimulate.Replay replay = IamSimulate.installed().replay(POLICIES, FIXTURES.resolve("malformed.jsonl"));

        assertThat(replay.calls()).isEqualTo(reasons.size());
        assertThat(replay.malformed()).as(replay.output()).isEqualTo(reasons.size());
        assertThat(replay.agree()).isZero();
        assertThat(replay.disagree()).isZero();
        reasons.forEach((line, reason) -> assertThat(replay.at("malformed.jsonl", line))
                .as("line " + line)
                .get()
                .satisfies(offense -> {
                    assertThat(offense.kind()).isEqualTo(IamSimulate.Kind.MALFORMED);
                    assertThat(offense.text()).contains(reason);
                }));
    }

    /** A decision the replay must not share: each one turned into another. */
    private static Decision other(Decision decision) {
        return switch (decision) {
            case Allowed -> Decision.ImplicitlyDenied;
            case ImplicitlyDenied -> Decision.ExplicitlyDenied;
            case ExplicitlyDenied -> Decision.Allowed;
        };
    }

    private static List<ObjectNode> lines(Path log) throws IOException {
        List<ObjectNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            if (!line.isBlank()) {
                lines.add((ObjectNode) JSON.readTree(line));
            }
        }
        return lines;
    }

    private static Path write(Path log, List<ObjectNode> lines) throws IOException {
        StringBuilder text = new StringBuilder();
        for (ObjectNode line : lines) {
            text.append(JSON.writeValueAsString(line)).append('\n');
        }
        return Files.writeString(log, text);
    }
}
