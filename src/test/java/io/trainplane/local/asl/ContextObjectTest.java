package io.trainplane.local.asl;

import static io.trainplane.local.asl.AslTesting.json;
import static io.trainplane.local.asl.AslTesting.script;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The context object ($$) as Parameters see it, and execution names. */
class ContextObjectTest {
    private static final String DEFINITION =
            """
            {"StartAt": "Sleep", "States": {
              "Sleep": {"Type": "Wait", "Seconds": 90, "Next": "Work"},
              "Work": {"Type": "Task", "Resource": "F", "Parameters": {
                  "executionId.$": "$$.Execution.Id", "executionName.$": "$$.Execution.Name",
                  "startTime.$": "$$.Execution.StartTime", "input.$": "$$.Execution.Input",
                  "state.$": "$$.State.Name", "entered.$": "$$.State.EnteredTime",
                  "retryCount.$": "$$.State.RetryCount",
                  "machineId.$": "$$.StateMachine.Id", "machineName.$": "$$.StateMachine.Name",
                  "fromInput.$": "$.runId"},
                "End": true}}}""";

    @Test
    void parametersReadTheContextObject() {
        var invoker = script().returns("{}");
        SimulatedClock clock = new SimulatedClock(AslTesting.T0.plusMillis(250));
        new Executor(clock)
                .execute(
                        StateMachine.parse(DEFINITION, Map.of()),
                        "cifar10-nightly-001",
                        json("{\"runId\": \"cifar10-nightly-001\"}"),
                        invoker,
                        ExecutionListener.NONE);
        assertThat(invoker.payloads.get(0))
                .isEqualTo(
                        json(
                                """
                {"executionId": "arn:aws:states:local:000000000000:execution:TrainingPipeline:cifar10-nightly-001",
                 "executionName": "cifar10-nightly-001",
                 "startTime": "2024-05-01T12:00:00.250Z",
                 "input": {"runId": "cifar10-nightly-001"},
                 "state": "Work",
                 "entered": "2024-05-01T12:01:30.250Z",
                 "retryCount": 0,
                 "machineId": "arn:aws:states:local:000000000000:stateMachine:TrainingPipeline",
                 "machineName": "TrainingPipeline",
                 "fromInput": "cifar10-nightly-001"}"""));
        assertThat(invoker.contexts.get(0))
                .isEqualTo(new TaskContext(
                        "cifar10-nightly-001",
                        "Work",
                        0,
                        AslTesting.T0.plusMillis(250).plus(Duration.ofSeconds(90))));
    }

    @Test
    void theMachineNameGivenAtLoadNamesTheArns() {
        var invoker = script().returns("{}");
        new Executor(new SimulatedClock(AslTesting.T0))
                .execute(
                        StateMachine.parse(DEFINITION, Map.of(), "Cleanup"),
                        "r1",
                        json("{\"runId\": \"r1\"}"),
                        invoker,
                        ExecutionListener.NONE);
        assertThat(invoker.payloads.get(0).get("executionId").textValue())
                .isEqualTo("arn:aws:states:local:000000000000:execution:Cleanup:r1");
        assertThat(invoker.payloads.get(0).get("machineName").textValue()).isEqualTo("Cleanup");
    }

    @Test
    void aContextPathThatNamesNothingIsAStatesRuntimeError() {
        var run = AslTesting.run(
                AslTesting.single(
                        """
                {"Type": "Pass", "Parameters": {"token.$": "$$.Task.Token"}, "End": true}"""),
                "{}",
                script());
        assertThat(run.result().error()).isEqualTo("States.Runtime");
        assertThat(run.result().cause()).contains("'$$.Task.Token'").contains("context object");
    }

    @Test
    void executionNamesFollowStepFunctionsRules() {
        Executor executor = new Executor(new SimulatedClock(AslTesting.T0));
        StateMachine machine = AslTesting.machine(AslTesting.single("{\"Type\": \"Succeed\"}"));
        for (String bad : new String[] {"", "has space", "a/b", "x".repeat(81), "a:b"}) {
            assertThatThrownBy(() -> executor.execute(machine, bad, json("{}"), script(), ExecutionListener.NONE))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(executor.execute(machine, "cifar10_nightly-001", null, script(), null)
                        .status())
                .isEqualTo(ExecutionStatus.SUCCEEDED);
    }
}
