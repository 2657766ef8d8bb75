package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.local.asl.HistoryEvent;
import io.trainplane.local.sim.SimulatedStepFunctions;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunStatus;
import io.trainplane.spec.RunSpecs;
import io.trainplane.workflow.StepWiring;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * Cleanup tears down only a run whose pipeline has ended: started by hand for a running run it
 * stops at CheckPipeline and the run goes on to succeed; a run past its maxRunHours is stopped by
 * the janitor, and the safety net then cleans it up.
 */
class CleanupGuardTest {
    /** Runs the quickstart, calling {@code during} once, as the run enters CheckTraining. */
    static RunReport run(LocalCloud cloud, BiConsumer<LocalCloud, LocalRun> during) throws Exception {
        String quickstart = Files.readString(Path.of("examples/quickstart.json"));
        AtomicBoolean done = new AtomicBoolean();
        LocalRun[] run = new LocalRun[1];
        run[0] = new LocalRun(cloud, Faults.none(), (HistoryEvent e) -> {
            if (e.type().equals("TaskStateEntered") && e.stateName().equals("CheckTraining") && !done.getAndSet(true)) {
                during.accept(cloud, run[0]);
            }
        });
        return run[0].execute(RunSpecs.normalize(quickstart), "quickstart");
    }

    static SimulatedStepFunctions.ExecutionRecord cleanup(LocalCloud cloud) {
        return cloud.stepFunctions().executions().stream()
                .filter(e -> e.stateMachineArn().equals(LocalCloud.CLEANUP_ARN))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void cleanupStartedForARunningRunStopsBeforeDeletingAnything() throws Exception {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            List<String> before = new ArrayList<>();
            List<String> after = new ArrayList<>();
            RunReport report = run(cloud, (c, r) -> {
                before.addAll(c.inventory());
                c.clients().sfn().startExecution(s -> s.stateMachineArn(LocalCloud.CLEANUP_ARN)
                        .name("cleanup-quickstart")
                        .input(Json.write(
                                Json.object().put("runId", "quickstart").put("reason", "ABORTED"))));
                after.addAll(c.inventory());
            });

            assertThat(cleanup(cloud).status()).isEqualTo("FAILED");
            assertThat(after).as("nothing of the running run was deleted").containsExactlyElementsOf(before);
            assertThat(report.status())
                    .as("%s %s", report.error(), report.cause())
                    .isEqualTo("SUCCEEDED");
            assertThat(cloud.calls().counts()).containsKey("states:DescribeExecution");
        }
    }

    @Test
    void aRunPastItsMaxRunHoursIsStoppedByTheJanitorAndCleanedUpByTheSafetyNet() throws Exception {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            JsonNode[] sweep = new JsonNode[1];
            RunReport report = run(cloud, (c, r) -> {
                c.clock().advance(Duration.ofHours(5)); // the quickstart's maxRunHours is 4
                sweep[0] = LocalJanitor.sweep(c);
            });

            assertThat(sweep[0].at("/runs/0/runId").asText()).isEqualTo("quickstart");
            assertThat(sweep[0].at("/runs/0/why").asText()).isEqualTo("EXPIRED");
            assertThat(sweep[0].at("/runs/0/cleanup").asText()).isEqualTo("pipeline-stopped");
            RunRecord record = StepWiring.runStore(cloud.clients()).get("quickstart");
            assertThat(record.status()).isEqualTo(RunStatus.FAILED);
            assertThat(record.error().error()).isEqualTo("RunExpired");
            assertThat(record.error().cause()).contains("maxRunHours (4 h)");
            assertThat(cleanup(cloud).status()).isEqualTo("SUCCEEDED");
            assertThat(report.resources().remaining()).isEmpty();
        }
    }
}
