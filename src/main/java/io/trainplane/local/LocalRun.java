package io.trainplane.local;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.RunEvents;
import io.trainplane.core.Json;
import io.trainplane.local.asl.ExecutionListener;
import io.trainplane.local.asl.ExecutionResult;
import io.trainplane.local.asl.ExecutionStatus;
import io.trainplane.local.asl.Executor;
import io.trainplane.local.asl.HistoryEvent;
import io.trainplane.local.asl.StateMachine;
import io.trainplane.runs.LostEvent;
import io.trainplane.runs.RunError;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunStore;
import io.trainplane.workflow.FailureReport;
import io.trainplane.workflow.StepWiring;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One run of the real TrainingPipeline state machine with the real handlers, on a
 * {@link LocalCloud}: what {@code trainplane run} does.
 */
public final class LocalRun {
    public static final String PIPELINE = "/statemachines/training-pipeline.asl.json";

    private final LocalCloud cloud;
    private final Faults faults;
    private final Consumer<HistoryEvent> progress;
    private String abortAt;
    private final AtomicBoolean stopRequested = new AtomicBoolean();

    public LocalRun(LocalCloud cloud, Faults faults, Consumer<HistoryEvent> progress) {
        this.cloud = cloud;
        this.faults = faults;
        this.progress = progress;
    }

    /**
     * Stops the execution when {@code state} is entered, as a user would in the console (no Catch
     * runs); the safety net then cleans up. Null for none.
     */
    public LocalRun abortingAt(String state) {
        this.abortAt = state;
        return this;
    }

    /**
     * Stops the execution before the next state it enters, from any thread (Ctrl-C): as
     * {@link #abortingAt}, the safety net then cleans up and {@link #execute} returns the report.
     */
    public void stop() {
        stopRequested.set(true);
    }

    public RunReport execute(JsonNode spec, String executionName) {
        long wallStart = System.nanoTime();
        cloud.apply(faults);
        var clock = cloud.clock();
        var started = clock.instant();
        LocalLambdas lambdas = new LocalLambdas(cloud, faults);
        StateMachine machine =
                StateMachine.parse(definition(PIPELINE), LocalCloud.substitutions(LocalCloud.PIPELINE_MACHINE));
        LocalSafetyNet.install(cloud, lambdas);
        Set<String> created = new TreeSet<>();
        ExecutionListener listener = new ExecutionListener() {
            @Override
            public void onEvent(HistoryEvent event) {
                if (event.type().equals("TaskSucceeded") || event.type().equals("TaskFailed")) {
                    created.addAll(cloud.inventory());
                }
                progress.accept(event);
            }

            @Override
            public boolean abortOnEntering(String stateName) {
                return stateName.equals(abortAt) || stopRequested.get();
            }
        };
        // Step Functions knows the execution while it runs: Cleanup asks how it stands, the janitor may stop it.
        cloud.stepFunctions().running(LocalCloud.PIPELINE_ARN, executionName, spec, this::stop);
        ExecutionResult result = new Executor(clock)
                .execute(machine, executionName, spec, lambdas.invokedBy(LocalCloud.PIPELINE_MACHINE), listener);
        cloud.stepFunctions()
                .ended(LocalCloud.PIPELINE_ARN, executionName, result.status().name());
        LocalSafetyNet.statusChanged(cloud, result);
        cloud.reconcile();
        List<String> remaining = cloud.inventory();
        created.addAll(remaining);

        RunStore store = StepWiring.runStore(cloud.clients());
        Optional<RunRecord> record = store.find(executionName);
        RunError error = record.map(RunRecord::error).orElse(null);
        String status = record.map(r -> r.status().name())
                .orElse(result.status() == ExecutionStatus.ABORTED ? "CANCELLED" : "FAILED");
        if (record.isEmpty()) {
            // The run never got a record (StartRun failed): FinishRun's outcome says what happened.
            error = finishOutcome(result)
                    .map(o -> new RunError(
                            o.path("failedState").asText(null),
                            o.path("error").asText(result.error()),
                            o.path("cause").asText(result.cause()),
                            null))
                    .or(() -> firstTaskFailure(result))
                    .orElse(new RunError(null, result.error(), result.cause(), null));
        }
        if (error == null && "BUDGET_REACHED".equals(status)) {
            // Not a failure of a state: the reason the run stopped, as the execution ends with it.
            error = new RunError(null, result.error(), result.cause(), null);
        }
        return new RunReport(
                executionName,
                status,
                error == null ? null : error.state(),
                error == null ? null : error.error(),
                error == null ? null : error.cause(),
                error == null ? null : error.logTail(),
                error == null ? null : error.cleanup(),
                record.map(RunRecord::metrics).orElse(Map.of()),
                cloud.bus().events().stream()
                        .filter(e -> RunEvents.SOURCE.equals(e.source()))
                        .map(e -> e.detailType())
                        .toList(),
                record.map(r -> r.lostEvents().stream().map(LostEvent::warning).toList())
                        .orElse(List.of()),
                result.stateTransitions(),
                cloud.calls().counts(),
                new RunReport.Resources(List.copyOf(created), remaining),
                result.status().name(),
                Duration.between(started, clock.instant()).toSeconds(),
                Duration.ofNanos(System.nanoTime() - wallStart).toMillis(),
                record.map(RunRecord::cost).orElse(null));
    }

    /**
     * Without a record and without FinishRun's outcome (it could not write either: the run's role
     * may not reach the table), the first Task that failed says what happened, as the execution's
     * history would on AWS.
     */
    private static Optional<RunError> firstTaskFailure(ExecutionResult result) {
        return result.events("TaskFailed").stream().findFirst().map(e -> {
            var caught = Json.object();
            caught.putObject(e.stateName())
                    .put("Error", e.details().path("error").asText("Unknown"))
                    .put("Cause", e.details().path("cause").asText(""));
            return FailureReport.from(caught);
        });
    }

    private static Optional<JsonNode> finishOutcome(ExecutionResult result) {
        return result.events("TaskSucceeded").stream()
                .filter(e -> "FinishRun".equals(e.stateName()))
                .reduce((first, last) -> last)
                .map(e -> e.details().path("output"));
    }

    public static String definition(String resource) {
        try (InputStream in = LocalRun.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("state machine definition missing from the jar: " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
