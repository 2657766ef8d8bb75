package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.workflow.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The estimate of {@code plan}, checked against numbers worked out by hand from the price table and the model. */
class PlanCostTest {
    @TempDir
    Path dir;

    static final String SPEC = """
            {"runId": "cost-check",
             "cluster": {"mode": "create", "kubernetesVersion": "1.31",
                         "nodeGroup": {"instanceType": "g5.2xlarge", "nodes": 2, "gpusPerNode": 1}},
             "volume": {"type": "efs"},
             "training": {"workers": 2, "procsPerWorker": 1, "gpusPerWorker": 1, "epochs": 20, "timeoutMinutes": 240},
             "maxRunHours": 6}
            """;

    JsonNode cost(String spec) throws IOException {
        Path f = dir.resolve("spec.json");
        Files.writeString(f, spec);
        CliTest.Result r = CliTest.cli("plan", "--output", "json", f.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        return Json.read(r.out()).path("cost");
    }

    static double line(JsonNode lines, String prefix, String field) {
        for (JsonNode l : lines) {
            if (l.path("item").asText().startsWith(prefix)) {
                return l.path(field).asDouble();
            }
        }
        throw new AssertionError("no line " + prefix + " in " + lines);
    }

    @Test
    void theExpectedAndWorstCaseTablesAddUp() throws IOException {
        JsonNode cost = cost(SPEC);
        assertThat(cost.path("estimate").asBoolean()).isTrue();
        assertThat(cost.path("region").asText()).isEqualTo("us-east-1");

        // 20 epochs × 25 s (g5) = 500 s of training, + 0.5 h of provisioning and teardown.
        double hours = 500.0 / 3600 + 0.5;
        assertThat(cost.path("expectedHours").asDouble()).isCloseTo(hours, within(1e-4));
        JsonNode lines = cost.path("lines");
        assertThat(line(lines, "EC2", "quantity")).isCloseTo(2 * hours, within(1e-4));
        assertThat(line(lines, "EC2", "cost")).isCloseTo(2 * hours * 1.212, within(1e-4));
        assertThat(line(lines, "EKS control plane", "cost")).isCloseTo(hours * 0.10, within(1e-4));
        assertThat(line(lines, "EFS storage", "cost")).isCloseTo(2.0 * hours / 730 * 0.30, within(1e-4));
        assertThat(line(lines, "EFS elastic throughput, writes", "cost")).isCloseTo(0.12, within(1e-4));
        assertThat(line(lines, "EFS elastic throughput, reads", "cost")).isCloseTo(0.2 * 21 * 0.03, within(1e-4));
        // 40 setup polls + ceil(500 / 120) = 5 training polls; 60 + 3 × 45 = 195 transitions; (30 + 45) × 2 GB-s.
        assertThat(line(lines, "Step Functions", "quantity")).isCloseTo(0.195, within(1e-6));
        assertThat(line(lines, "Step Functions", "cost")).isCloseTo(0.195 * 0.025, within(1e-6));
        assertThat(line(lines, "Lambda", "quantity")).isCloseTo(150, within(1e-6));
        assertThat(line(lines, "Lambda", "cost")).isCloseTo(150 * 0.0000166667, within(1e-6));
        double total = 2 * hours * 1.212 + hours * 0.10 + 2.0 * hours / 730 * 0.30 + 0.12 + 0.126 + 0.004875 + 0.0025;
        assertThat(cost.path("total").asDouble()).isCloseTo(total, within(1e-3));

        JsonNode worst = cost.path("worstCase");
        assertThat(worst.path("hours").asDouble()).isEqualTo(6.0);
        // 40 + 6 × 3600 / 120 = 220 polls: 720 transitions, 500 GB-s.
        double worstTotal = 12 * 1.212 + 0.6 + 2.0 * 6 / 730 * 0.30 + 0.12 + 0.126 + 0.720 * 0.025 + 500 * 0.0000166667;
        assertThat(worst.path("total").asDouble()).isCloseTo(worstTotal, within(1e-3));
    }

    @Test
    void trainingTimeIsCappedByTheTimeoutAndExistingClustersCostNoNodes() throws IOException {
        JsonNode capped = cost("""
                {"runId": "cost-cap", "cluster": {"mode": "create", "kubernetesVersion": "1.31",
                  "nodeGroup": {"instanceType": "c5.2xlarge", "nodes": 1}},
                 "training": {"workers": 1, "procsPerWorker": 1, "epochs": 100, "timeoutMinutes": 60}, "maxRunHours": 4}
                """);
        // 100 × 240 s = 6.67 h, capped at 1 h by the timeout, + 0.5 h.
        assertThat(capped.path("expectedHours").asDouble()).isCloseTo(1.5, within(1e-4));
        assertThat(capped.path("assumptions").toString()).contains("timeoutMinutes");

        JsonNode existing = cost("""
                {"runId": "cost-existing", "cluster": {"mode": "existing", "name": "warm"}, "volume": {"type": "none"}}
                """);
        assertThat(existing.path("lines").toString()).doesNotContain("EC2", "EKS control plane");
    }

    @Test
    void theTextPlanShowsTheEstimate() throws IOException {
        Path f = dir.resolve("spec.json");
        Files.writeString(f, SPEC);
        CliTest.Result r = CliTest.cli("plan", f.toString());
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("Cost ESTIMATE", "worst case", "g5.2xlarge", "(estimate)");
    }
}
