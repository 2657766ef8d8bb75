package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * run's live view with a retried step and the bar a terminal gets, and the timeline it stores: the
 * attempt that failed and the one that succeeded are both in it, and the phases still add up.
 */
class LiveProgressTest {
    @TempDir
    Path store;

    @Test
    void aRetriedStepShowsOnceAndTheBarIsRedrawnInPlace() {
        CliTest.Result r = LocalStoreCommandsTest.cli(
                "run",
                "examples/quickstart.json",
                "--runtime",
                "simulated",
                "--throttle",
                "eks:CreateNodegroup",
                "--progress",
                "bar",
                "--store",
                store.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.err().lines().filter(l -> l.contains("✗ CreateNodegroup"))).hasSize(1);
        assertThat(r.err()).contains("▶ train (data took");
        // The bar: each new epoch returns to the line's start and redraws it; the next phase starts a new line.
        assertThat(r.err()).containsPattern("\\r\\[0:\\d\\d:\\d\\d\\] \\[█+░*\\] epoch \\d+/10 loss \\d\\.\\d{4}");
        assertThat(r.err()).containsPattern("epoch \\d+/10 loss [^\\n]*\\n\\[0:\\d\\d:\\d\\d\\] ▶ evaluate");

        JsonNode run = Json.read(
                LocalStoreCommandsTest.cli("status", "quickstart", "--store", store.toString(), "--output", "json")
                        .out());
        // The state's entry keys the attempt that succeeded; the one that failed is beside it.
        List<String> attempts = new ArrayList<>();
        run.path("steps").forEach(s -> {
            if (s.path("state").asText().equals("CreateNodegroup")) {
                attempts.add(s.path("outcome").asText());
            }
        });
        assertThat(attempts).containsExactly("ok", "TransientException");
        double sum = 0;
        for (JsonNode p : run.path("phases")) {
            assertThat(p.path("durationSeconds").asDouble()).as(p.toString()).isPositive();
            sum += p.path("durationSeconds").asDouble();
        }
        double runSeconds = java.time.Duration.between(
                                java.time.Instant.parse(run.path("createdAt").asText()),
                                java.time.Instant.parse(run.path("updatedAt").asText()))
                        .toMillis()
                / 1000.0;
        assertThat(sum).isCloseTo(runSeconds, org.assertj.core.data.Offset.offset(0.01));
    }
}
