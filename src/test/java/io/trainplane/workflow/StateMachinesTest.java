package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.trainplane.workflow.StateMachineDefinition.Catch;
import io.trainplane.workflow.StateMachineDefinition.Task;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The committed state machines, functions.mk and template.yaml's functions are what {@link Pipeline}
 * makes of them. With
 * {@code -Dtrainplane.regenerate=true} (what {@value GeneratedFiles#COMMAND} runs) the test writes
 * them instead.
 */
class StateMachinesTest {
    @Test
    void theCommittedFilesAreWhatThePipelineMakes() throws IOException {
        boolean regenerate = Boolean.getBoolean("trainplane.regenerate");
        for (Map.Entry<String, String> file : GeneratedFiles.render(Path.of("")).entrySet()) {
            Path path = Path.of(file.getKey());
            String committed = Files.exists(path) ? Files.readString(path) : "";
            if (regenerate && !committed.equals(file.getValue())) {
                Files.writeString(path, file.getValue());
                System.out.println("wrote " + path);
            } else if (!committed.equals(file.getValue())) {
                fail(path + " is stale: it differs from what io.trainplane.workflow.Pipeline makes of it "
                        + firstDifference(committed, file.getValue()) + ". Regenerate it with `"
                        + GeneratedFiles.COMMAND + "`.");
            }
        }
    }

    static String firstDifference(String committed, String made) {
        List<String> a = committed.lines().toList();
        List<String> b = made.lines().toList();
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            String was = i < a.size() ? a.get(i) : "(end of file)";
            String is = i < b.size() ? b.get(i) : "(end of file)";
            if (!was.equals(is)) {
                return "from line " + (i + 1) + " (committed: " + was.strip() + "; declared: " + is.strip() + ")";
            }
        }
        return "in line endings";
    }

    @Test
    void everyTaskRetriesWithTheNamedPoliciesAndOutlivesItsFunction() {
        for (StateMachineDefinition machine : Pipeline.stateMachines()) {
            machine.states().stream()
                    .filter(s -> s instanceof Task)
                    .map(s -> (Task) s)
                    .forEach(task -> {
                        assertThat(task.retry())
                                .as(task.name())
                                .containsExactly(
                                        Pipeline.LAMBDA_ERRORS, Pipeline.SNAPSTART_ERRORS, Pipeline.TRANSIENT_ERRORS);
                        assertThat(task.timeout()).as(task.name()).isEqualTo(Pipeline.TASK_TIMEOUT);
                    });
        }
        // The name Lambda reports for the steps' exception (its class name) is what the retrier matches.
        assertThat(Pipeline.TRANSIENT_ERRORS.errors()).contains("io.trainplane.core.TransientException");
        // What Lambda reports for a function past its Timeout, and for a SnapStart version not ready yet.
        assertThat(Pipeline.TRANSIENT_ERRORS.errors()).contains("Sandbox.Timedout");
        assertThat(Pipeline.SNAPSTART_ERRORS.errors())
                .containsExactly("Lambda.SnapStartNotReadyException", "Lambda.SnapStartTimeoutException");
    }

    @Test
    void aTransitionToNoStateOrAStateNothingReachesIsRefused() {
        var dangling = new StateMachineBuilder("M", "m.asl.json", Duration.ofHours(1), null);
        dangling.task("StartRun", Pipeline.START_RUN).resultPath("$").next("Nowhere");
        assertThatThrownBy(dangling::build).hasMessageContaining("StartRun goes to Nowhere");

        var unreached = new StateMachineBuilder("M", "m.asl.json", Duration.ofHours(1), null);
        unreached
                .task("StartRun", Pipeline.START_RUN)
                .resultPath("$")
                .catching(Catch.at("$.error", "Failed"))
                .next("Done");
        unreached.succeed("Done");
        unreached.succeed("Orphan");
        unreached.fail("Failed", "E", "c");
        assertThatThrownBy(unreached::build).hasMessageContaining("no transition reaches [Orphan]");

        var twice = new StateMachineBuilder("M", "m.asl.json", Duration.ofHours(1), null);
        twice.waitSeconds("Wait", 1, "Wait");
        twice.waitSeconds("Wait", 2, "Wait");
        assertThatThrownBy(twice::build).hasMessageContaining("two states named Wait");

        var open = new StateMachineBuilder("M", "m.asl.json", Duration.ofHours(1), null);
        open.task("StartRun", Pipeline.START_RUN).resultPath("$");
        assertThatThrownBy(open::build).hasMessageContaining("StartRun has no Next");
    }

    @Test
    void aPollLoopLooksWaitsWhatTheStepSaysAndLooksAgain() {
        var m = new StateMachineBuilder("M", "m.asl.json", Duration.ofHours(1), null);
        m.task("CheckCluster", Pipeline.CHECK_CLUSTER)
                .resultPath("$.clusterStatus")
                .poll("ClusterReady", "WaitForCluster")
                .then("Done");
        m.succeed("Done");
        assertThat(m.build().states())
                .extracting(StateMachineDefinition.State::asl)
                .map(Object::toString)
                .containsExactly(
                        m.build().states().get(0).asl().toString(),
                        "{\"Type\":\"Choice\",\"Choices\":[{\"Variable\":\"$.clusterStatus.done\",\"BooleanEquals\":true,"
                                + "\"Next\":\"Done\"}],\"Default\":\"WaitForCluster\"}",
                        "{\"Type\":\"Wait\",\"SecondsPath\":\"$.clusterStatus.waitSeconds\",\"Next\":\"CheckCluster\"}",
                        "{\"Type\":\"Succeed\"}");
        assertThat(m.build().states().get(0).transitions()).containsExactly("ClusterReady");
    }
}
