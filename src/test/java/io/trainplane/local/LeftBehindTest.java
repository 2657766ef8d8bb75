package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.TestTime;
import io.trainplane.local.sim.SimulatedEventBus;
import io.trainplane.runs.CleanupFailure;
import io.trainplane.runs.Leftover;
import io.trainplane.runs.RunRecord;
import io.trainplane.spec.RunSpecs;
import io.trainplane.workflow.CleanupRecord;
import io.trainplane.workflow.StepWiring;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * When an AWS call the cleanup needs keeps failing, the run ends FAILED and its error (record,
 * Run Failed event, summary) names exactly what the simulated account still holds, and what it
 * says removes it does: the janitor's next sweep, once the call works again.
 */
class LeftBehindTest {
    static String quickstart;
    /** The operations of a quickstart run that look or delete: the ones cleanup makes (from the call log). */
    static List<String> cleanupOperations;

    @BeforeAll
    static void realRun() throws IOException {
        quickstart = Files.readString(Path.of("examples/quickstart.json"));
        // The healthy quickstart run, shared with the other tests that read one (ExampleRuns).
        RunReport ok = ExampleRuns.quickstart().report();
        assertThat(ok.status()).isEqualTo("SUCCEEDED");
        assertThat(ok.cleanup()).isNull();
        cleanupOperations = ok.calls().keySet().stream()
                .filter(op -> !op.startsWith("events:"))
                // StartRun's look at the instance types, before the run exists (LiveInstanceFactsRunTest).
                .filter(op -> !op.startsWith("ec2:") && !op.startsWith("pricing:"))
                .filter(op -> op.contains(":Delete")
                        || op.contains(":Describe")
                        || op.contains(":List")
                        || op.contains(":Get"))
                .sorted()
                .toList();
        assertThat(cleanupOperations)
                .contains(
                        "efs:DeleteFileSystem",
                        "efs:DeleteMountTarget",
                        "efs:DescribeMountTargets",
                        "eks:DeleteCluster",
                        "eks:DeleteNodegroup");
    }

    @TestFactory
    Stream<DynamicTest> theErrorNamesExactlyWhatIsLeftAndTheJanitorRemovesIt() {
        return cleanupOperations.stream()
                .map(op -> DynamicTest.dynamicTest("--fault " + op, () -> {
                    try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
                        RunReport r = new LocalRun(cloud, new Faults(Set.of(), Set.of(), Set.of(op), Set.of()), e -> {})
                                .execute(RunSpecs.normalize(quickstart), "quickstart");
                        assertThat(r.status()).isEqualTo("FAILED");
                        List<String> remaining = r.resources().remaining();
                        RunRecord record = StepWiring.runStore(cloud.clients()).get("quickstart");
                        CleanupFailure cleanup = record.error().cleanup();
                        List<JsonNode> failed = cloud.bus().events().stream()
                                .filter(e -> e.detailType().equals("Run Failed"))
                                .map(SimulatedEventBus.Event::detail)
                                .toList();
                        assertThat(failed).hasSize(1);
                        if (remaining.isEmpty()) {
                            assertThat(cleanup)
                                    .as("nothing is left, so the error names nothing")
                                    .isNull();
                            assertThat(r.cleanup()).isNull();
                            assertThat(failed.get(0).has("cleanup")).isFalse();
                            return;
                        }
                        assertThat(cleanup)
                                .as("the error of a run that left " + remaining)
                                .isNotNull();
                        assertThat(cleanup.refs())
                                .as("what the error names")
                                .containsExactlyInAnyOrderElementsOf(remaining);
                        assertThat(r.cleanup()).isEqualTo(cleanup);
                        assertThat(cleanup.leftBehind())
                                .extracting(Leftover::removedBy)
                                .containsOnly(Leftover.JANITOR);
                        assertThat(cleanup.command()).isEqualTo("trainplane cleanup quickstart --stack trainplane");
                        assertThat(record.error().fullCause())
                                .contains(remaining)
                                .contains(cleanup.command());

                        JsonNode event = failed.get(0);
                        List<String> named = new ArrayList<>();
                        event.path("cleanup")
                                .path("leftBehind")
                                .forEach(l -> named.add(l.path("kind").asText() + "/"
                                        + l.path("id").asText()));
                        assertThat(named).containsExactlyInAnyOrderElementsOf(remaining);
                        assertThat(event.path("cause").asText()).contains(remaining);

                        // What the error says removes it does: the janitor's next sweep, once the account lets it.
                        cloud.faults().clear();
                        cloud.clock().advance(Duration.ofHours(1));
                        LocalJanitor.sweep(cloud);
                        cloud.reconcile();
                        assertThat(cloud.inventory())
                                .as("left after the janitor's sweep")
                                .isEmpty();
                        RunRecord swept = StepWiring.runStore(cloud.clients()).get("quickstart");
                        assertThat(swept.error().cleanup())
                                .as("the record no longer says anything is left")
                                .isNull();
                        assertThat(CleanupRecord.finished(swept)).isTrue();
                    }
                }));
    }

    /**
     * When the Teardown function itself never runs (every pass fails), nothing asks the services
     * what is left: the error names what the record lists, each resource as the account's
     * inventory names it, and what it names covers everything left (a pod by its namespace, a
     * mount target by its file system, an add-on by its cluster); the janitor removes it all.
     */
    @Test
    void aCleanupWhoseOwnFunctionNeverRunsStillNamesEveryLeftoverAndTheJanitorRemovesThem() {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            Faults teardownFails = new Faults(Set.of("Teardown", "CheckTeardown", "RetryTeardown"), Set.of());
            RunReport r =
                    new LocalRun(cloud, teardownFails, e -> {}).execute(RunSpecs.normalize(quickstart), "quickstart");
            assertThat(r.status()).isEqualTo("FAILED");
            List<String> remaining = r.resources().remaining();
            assertThat(remaining).contains("eks:cluster/tp-quickstart-eks");
            CleanupFailure cleanup = StepWiring.runStore(cloud.clients())
                    .get("quickstart")
                    .error()
                    .cleanup();
            assertThat(cleanup).as("the error of a run that left " + remaining).isNotNull();
            assertThat(r.cleanup()).isEqualTo(cleanup);
            List<String> named = cleanup.refs();
            assertThat(named).noneMatch(ref -> ref.startsWith("cloudcontrol:request/"));
            assertThat(remaining).allSatisfy(left -> assertThat(coveredBy(left, named))
                    .as(left + " is named, or lies in what is named: " + named)
                    .isTrue());
            assertThat(cleanup.leftBehind()).extracting(Leftover::removedBy).containsOnly(Leftover.JANITOR);
            assertThat(cleanup.sentence()).contains("The janitor deletes them").contains(cleanup.command());

            cloud.faults().clear();
            cloud.clock().advance(Duration.ofHours(1));
            LocalJanitor.sweep(cloud);
            cloud.reconcile();
            assertThat(cloud.inventory()).as("left after the janitor's sweep").isEmpty();
        }
    }

    /** Whether {@code left} is one of {@code named}, or goes with one (its namespace, cluster or file system). */
    private static boolean coveredBy(String left, List<String> named) {
        if (named.contains(left)) {
            return true;
        }
        String[] parts = left.split("/");
        if (parts[0].startsWith("kubernetes:")) {
            // A namespaced object goes with its namespace, a cluster-scoped one with the cluster.
            return parts.length == 3
                    ? named.contains("kubernetes:Namespace/" + parts[1])
                    : named.stream().anyMatch(ref -> ref.startsWith("eks:cluster/"));
        }
        return switch (parts[0]) {
            case "eks:addon" -> named.contains("eks:cluster/" + parts[1]);
            case "efs:mount-target" -> named.stream().anyMatch(ref -> ref.startsWith("efs:file-system/"));
            default -> false;
        };
    }
}
