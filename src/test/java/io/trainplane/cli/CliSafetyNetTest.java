package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import org.junit.jupiter.api.Test;

/** {@code run --abort-at} and {@code janitor} from the command line. */
class CliSafetyNetTest {
    @Test
    void aRunStoppedByTheUserIsCancelledAndCleanedUp() {
        CliTest.Result r =
                CliTest.cli("run", "examples/quickstart.json", "--abort-at", "CheckTraining", "--output", "json");
        JsonNode report = Json.read(r.out());
        assertThat(report.path("status").asText()).isEqualTo("CANCELLED");
        assertThat(report.path("executionStatus").asText()).isEqualTo("ABORTED");
        assertThat(report.path("resources").path("remaining")).isEmpty();
        assertThat(report.path("calls").path("states:StartExecution").asInt()).isEqualTo(1);
        assertThat(r.exit()).isNotZero();
    }

    @Test
    void abortAtNamesAState() {
        CliTest.Result r = CliTest.cli("run", "examples/quickstart.json", "--abort-at", "NoSuchState");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("no state named 'NoSuchState'");
    }

    @Test
    void theJanitorSweepsAnEmptyAccountAndReportsNothing() {
        CliTest.Result r = CliTest.cli("janitor");
        assertThat(r.exit()).isZero();
        JsonNode report = Json.read(r.out());
        assertThat(report.path("runs")).isEmpty();
        assertThat(report.path("skipped").asInt()).isZero();
    }
}
