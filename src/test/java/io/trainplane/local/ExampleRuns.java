package io.trainplane.local;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.local.asl.HistoryEvent;
import io.trainplane.local.iam.AuditEntry;
import io.trainplane.local.sim.SimulatedKubernetes;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunStore;
import io.trainplane.runs.StepEntry;
import io.trainplane.spec.RunSpecs;
import io.trainplane.workflow.StepWiring;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A run of a spec on a fresh {@link LocalCloud} (template.yaml's IAM, no faults), made once per
 * test JVM for each normalized spec and shared by the tests that judge different things of the
 * same run: {@link ExamplesUnderIamTest} (its IAM decisions and what it leaves),
 * {@link CreatedObjectsSchemaTest} (the Kubernetes objects it sent), {@link LustreVolumeRunTest}
 * (what the FSx for Lustre example calls and creates), and the fault matrices that
 * read from a healthy quickstart run which states, calls or statements to fault
 * ({@link LocalPipelineTest}, {@link SafetyNetTest}, {@link InfrastructureFaultsTest},
 * {@link LeftBehindTest}, {@link StackPoliciesNeededTest}). Each is run once, not once per test
 * class; what a test asserts of the run is unchanged.
 */
final class ExampleRuns {
    /** What is kept of a run once its cloud is closed (its audit log archived as usual on close). */
    record Outcome(
            RunReport report,
            List<HistoryEvent> history,
            RunRecord record,
            List<StepEntry> steps,
            List<AuditEntry> audit,
            List<SimulatedKubernetes.Write> writes,
            String clusterVersion) {
        List<AuditEntry> denials() {
            return audit.stream().filter(e -> !e.decision().allowed()).toList();
        }
    }

    private static final Map<String, Outcome> RUNS = new HashMap<>();

    private ExampleRuns() {}

    /** The run of examples/quickstart.json. */
    static Outcome quickstart() {
        try {
            return of(RunSpecs.normalize(Files.readString(Path.of("examples/quickstart.json"))));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

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
        String runId = spec.path("runId").asText();
        List<HistoryEvent> history = new ArrayList<>();
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunReport report = new LocalRun(cloud, Faults.none(), history::add).execute(spec, runId);
            // The run's IAM decisions, before this class reads the Runs table.
            List<AuditEntry> audit = cloud.iam().entries();
            RunStore store = StepWiring.runStore(cloud.clients());
            return new Outcome(
                    report,
                    List.copyOf(history),
                    store.find(runId).orElse(null),
                    store.steps(runId),
                    audit,
                    cloud.kubernetesClusters().writes(),
                    clusterVersion(cloud, spec));
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
