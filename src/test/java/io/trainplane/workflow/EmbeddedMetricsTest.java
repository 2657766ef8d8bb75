package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EmbeddedMetricsTest {
    @Test
    void oneLineInEmbeddedMetricFormat() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Map<String, Double> values = new LinkedHashMap<>();
        values.put("RunsSucceeded", 1.0);
        values.put("RunDurationSeconds", 5400.0);
        EmbeddedMetrics.emit(
                new PrintStream(bytes, true, StandardCharsets.UTF_8),
                Instant.ofEpochMilli(1_700_000_000_000L),
                values,
                Map.of("RunsSucceeded", "Count", "RunDurationSeconds", "Seconds"),
                Map.of("runId", "r1"));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(out.lines()).hasSize(1);
        JsonNode n = Json.read(out);
        JsonNode directive = n.path("_aws").path("CloudWatchMetrics").get(0);
        assertThat(n.path("_aws").path("Timestamp").asLong()).isEqualTo(1_700_000_000_000L);
        assertThat(directive.path("Namespace").asText()).isEqualTo("Trainplane");
        assertThat(directive.path("Dimensions").toString()).isEqualTo("[[]]");
        assertThat(directive.path("Metrics").toString())
                .isEqualTo(
                        "[{\"Name\":\"RunsSucceeded\",\"Unit\":\"Count\"},{\"Name\":\"RunDurationSeconds\",\"Unit\":\"Seconds\"}]");
        assertThat(n.path("RunsSucceeded").asDouble()).isEqualTo(1.0);
        assertThat(n.path("RunDurationSeconds").asDouble()).isEqualTo(5400.0);
        assertThat(n.path("runId").asText()).isEqualTo("r1");
    }

    @Test
    void silentOutsideLambda() {
        PrintStream saved = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            EmbeddedMetrics.emit(Map.of("Accuracy", 0.9), Map.of(), Map.of());
        } finally {
            System.setOut(saved);
        }
        if (System.getenv("AWS_LAMBDA_FUNCTION_NAME") == null) {
            assertThat(bytes.size()).isZero();
        }
    }
}
