package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The second example workload, examples/char-lm.json, as the README runs it: its directory shipped
 * with the run, trained for real by torchrun on 2 processes through the same state machine, and
 * gated on its own metric (perplexity ≤ 3, not accuracy).
 */
class CharLmRunTest {
    @Test
    void theCharacterLanguageModelTrainsForRealAndPassesItsPerplexityGate(@TempDir Path temp) throws Exception {
        Map<String, String> env = InitCommandTest.processRuntimeEnvironment(temp);

        InitCommandTest.Result run =
                InitCommandTest.cli(env, "run", "examples/char-lm.json", "--runtime", "process", "--output", "json");

        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode summary = Json.read(run.out());
        assertThat(summary.path("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(summary.at("/metrics/perplexity").asDouble())
                .as("the model learned: chance is the vocabulary's size, " + summary.at("/metrics/uniformPerplexity"))
                .isBetween(1.0, 3.0);
        assertThat(summary.at("/resources/remaining")).as(run.out()).isEmpty();
        assertThat(run.err()).contains("process runtime:", "4 files", "via the run's ConfigMap");
    }

    @Test
    void theSimulatedRuntimeRefusesAGateItCannotJudge(@TempDir Path temp) {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("TRAINPLANE_HOME", temp.resolve("store").toString());

        InitCommandTest.Result run = InitCommandTest.cli(env, "run", "examples/char-lm.json", "--runtime", "simulated");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("evaluation.metric is \"perplexity\"", "--runtime process");
        assertThat(temp.resolve("store")).doesNotExist();
    }
}
