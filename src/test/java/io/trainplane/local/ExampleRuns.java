package io.trainplane.local;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import io.trainplane.local.iam.AuditEntry;
import io.trainplane.local.sim.SimulatedKubernetes;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A run of a spec on a fresh {@link LocalCloud} (template.yaml's IAM, no faults), made once per
 * test JVM for each normalized spec and shared by the tests that judge different things of the
 * same run: {@link ExamplesUnderIamTest} (its IAM decisions and what it leaves) and
 * {@link CreatedObjectsSchemaTest} (the Kubernetes objects it sent). Every example is run once,
 * not once per test class; what a test asserts of the run is unchanged.
 */
final class ExampleRuns {
    /** What is kept of a run once its cloud is closed (its audit log archived as usual on close). */
    record Outcome(
            RunReport report, List<AuditEntry> audit, List<SimulatedKubernetes.Write> writes, String clusterVersion) {
        List<AuditEntry> denials() {
            return audit.stream().filter(e -> !e.decision().allowed()).toList();
        }
    }

    private static final Map<String, Outcome> RUNS = new HashMap<>();

    private ExampleRuns() {}

    /** The run of {@code spec} (normalized), made on first asking. */
    static synchronized Outcome of(JsonNode spec) {
        String key = Json.write(spec);
        Outcome outcome = RUNS.get(key);
        if (outcome == null) {
            outcome = run(spec);
            RUNS.put(key, outcome);
        }
        return outcome;
    }

    private static Outcome run(JsonNode spec) {
        try (LocalCloud cloud = new LocalCloud()) {
            RunReport report = new LocalRun(cloud, Faults.none(), e -> {})
                    .execute(spec, spec.path("runId").asText());
            return new Outcome(
                    report, cloud.iam().entries(), cloud.kubernetesClusters().writes(), clusterVersion(cloud, spec));
        }
    }

    /** The Kubernetes version of the run's cluster: the spec's for one it creates, EKS's for an existing one. */
    static String clusterVersion(LocalCloud cloud, JsonNode spec) {
        JsonNode cluster = spec.path("cluster");
        if (cluster.path("mode").asText().equals("existing")) {
            String name = cluster.path("name").asText();
            return cloud.eks().describeCluster(r -> r.name(name)).cluster().version();
        }
        return cluster.path("kubernetesVersion").asText();
    }
}
