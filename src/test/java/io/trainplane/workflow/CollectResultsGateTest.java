package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.core.TerminalException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The metrics CollectResults reads: the gate's metric must be among their numbers, whatever it is. */
class CollectResultsGateTest {
    @Test
    void theGatesMetricIsRequiredAndAccuracyIsNotWhenItIsAnother() {
        Map<String, Double> metrics =
                CollectResultsStep.parse("{\"perplexity\": 2.5, \"accuracy\": 0.61, \"note\": \"x\"}", "perplexity");

        assertThat(metrics).containsExactly(Map.entry("perplexity", 2.5), Map.entry("accuracy", 0.61));
        assertThat(CollectResultsStep.parse("{\"perplexity\": 2.5}", "perplexity"))
                .containsOnlyKeys("perplexity");
        assertThatThrownBy(() -> CollectResultsStep.parse("{\"accuracy\": 0.9}", "perplexity"))
                .isInstanceOf(TerminalException.class)
                .hasMessageContaining("no numeric 'perplexity', the quality gate's metric (evaluation.metric)");
        assertThatThrownBy(() -> CollectResultsStep.parse("{\"perplexity\": \"2.5\"}", "perplexity"))
                .as("a number in a string is not a number")
                .isInstanceOf(TerminalException.class);
        assertThatThrownBy(() -> CollectResultsStep.parse("{\"samples\": 10}", "accuracy"))
                .isInstanceOf(TerminalException.class)
                .hasMessageContaining("no numeric 'accuracy'");
    }
}
