package io.trainplane.local.asl;

import static io.trainplane.local.asl.AslTesting.json;
import static io.trainplane.local.asl.AslTesting.run;
import static io.trainplane.local.asl.AslTesting.script;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Catch: first matching catcher, error output, its ResultPath, and what reaches the next state. */
class CatchTest {
    private static final String DOC_CATCH =
            """
            {"StartAt": "X", "States": {
              "X": {"Type": "Task", "Resource": "arn:aws:lambda:local:000000000000:function:X",
                    "Catch": [{"ErrorEquals": ["java.lang.Exception"], "ResultPath": "$.error-info",
                               "Next": "RecoveryState"},
                              {"ErrorEquals": ["States.ALL"], "Next": "EndState"}],
                    "End": true},
              "RecoveryState": {"Type": "Pass", "End": true},
              "EndState": {"Type": "Pass", "End": true}}}""";

    @Test
    void catcherResultPathAddsTheErrorOutputToTheInput() {
        var run = run(DOC_CATCH, "{\"job\": \"j1\"}", script().fails("java.lang.Exception", "boom"));
        assertThat(run.result().events("PassStateEntered"))
                .extracting(HistoryEvent::stateName)
                .containsExactly("RecoveryState");
        assertThat(run.output())
                .isEqualTo(
                        json(
                                "{\"job\": \"j1\", \"error-info\": {\"Error\": \"java.lang.Exception\", \"Cause\": \"boom\"}}"));
    }

    @Test
    void defaultCatcherResultPathReplacesTheInputWithTheErrorOutput() {
        var run = run(DOC_CATCH, "{\"job\": \"j1\"}", script().fails("Lambda.ServiceException", "503"));
        assertThat(run.result().events("PassStateEntered"))
                .extracting(HistoryEvent::stateName)
                .containsExactly("EndState");
        assertThat(run.output()).isEqualTo(json("{\"Error\": \"Lambda.ServiceException\", \"Cause\": \"503\"}"));
    }

    @Test
    void catcherResultPathNullPassesTheInputUnchanged() {
        var run = run(
                """
                {"StartAt": "X", "States": {
                  "X": {"Type": "Task", "Resource": "F",
                        "Catch": [{"ErrorEquals": ["States.ALL"], "ResultPath": null, "Next": "H"}], "End": true},
                  "H": {"Type": "Pass", "End": true}}}""",
                "{\"job\": \"j1\"}",
                script().fails("E", "c"));
        assertThat(run.output()).isEqualTo(json("{\"job\": \"j1\"}"));
    }

    @Test
    void catchRunsOnlyAfterTheRetriesAreExhaustedAndSkipsOutputPath() {
        var invoker = script().fails("E", "1").fails("E", "2");
        var run = run(
                """
                {"StartAt": "X", "States": {
                  "X": {"Type": "Task", "Resource": "F", "OutputPath": "$.never",
                        "Retry": [{"ErrorEquals": ["E"], "MaxAttempts": 1}],
                        "Catch": [{"ErrorEquals": ["E"], "ResultPath": "$.failure", "Next": "H"}], "End": true},
                  "H": {"Type": "Pass", "End": true}}}""",
                "{\"a\": 1}",
                invoker);
        assertThat(invoker.calls()).isEqualTo(2);
        assertThat(run.types())
                .containsSubsequence(
                        "TaskFailed", "TaskScheduled", "TaskFailed", "TaskStateExited", "PassStateEntered");
        assertThat(run.output()).isEqualTo(json("{\"a\": 1, \"failure\": {\"Error\": \"E\", \"Cause\": \"2\"}}"));
    }

    @Test
    void anErrorNoCatcherMatchesFailsTheExecution() {
        var run = run(
                """
                {"StartAt": "X", "States": {
                  "X": {"Type": "Task", "Resource": "F",
                        "Catch": [{"ErrorEquals": ["Other"], "Next": "H"}], "End": true},
                  "H": {"Type": "Pass", "End": true}}}""",
                "{}",
                script().fails("E", "why"));
        assertThat(run.result().status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(run.result().error()).isEqualTo("E");
        assertThat(run.result().cause()).isEqualTo("why");
        assertThat(run.types()).endsWith("TaskFailed", "ExecutionFailed");
    }

    @Test
    void aTaskRunningLongerThanTimeoutSecondsFailsWithStatesTimeout() {
        SimulatedClock clock = new SimulatedClock(AslTesting.T0);
        var invoker = script().then((payload, context) -> {
            clock.advance(Duration.ofSeconds(3)); // the simulated work outlasts the state's 2 s
            return json("{}");
        });
        var run = AslTesting.run(
                """
                {"StartAt": "X", "States": {
                  "X": {"Type": "Task", "Resource": "F", "TimeoutSeconds": 2,
                        "Catch": [{"ErrorEquals": ["States.TaskFailed"], "Next": "Wrong"},
                                  {"ErrorEquals": ["States.Timeout"], "Next": "fallback"}], "End": true},
                  "Wrong": {"Type": "Pass", "End": true},
                  "fallback": {"Type": "Pass", "Result": "Hello, AWS Step Functions!", "End": true}}}""",
                "{}",
                invoker,
                ExecutionListener.NONE,
                clock);
        assertThat(run.result().events("TaskTimedOut")).hasSize(1);
        assertThat(run.result().events("TaskSucceeded")).isEmpty();
        assertThat(run.result().events("PassStateEntered"))
                .extracting(HistoryEvent::stateName)
                .containsExactly("fallback");
        assertThat(run.output()).isEqualTo(json("\"Hello, AWS Step Functions!\""));
    }

    @Test
    void aTaskWithinTimeoutSecondsSucceeds() {
        SimulatedClock clock = new SimulatedClock(AslTesting.T0);
        var invoker = script().then((payload, context) -> {
            clock.advance(Duration.ofSeconds(1));
            return json("{\"done\": true}");
        });
        var run = AslTesting.run(
                AslTesting.single("{\"Type\": \"Task\", \"Resource\": \"F\", \"TimeoutSeconds\": 2, \"End\": true}"),
                "{}",
                invoker,
                ExecutionListener.NONE,
                clock);
        assertThat(run.result().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(run.output()).isEqualTo(json("{\"done\": true}"));
    }

    @Test
    void anExceptionEscapingTheInvokerIsReportedLikeAnUnhandledJavaException() {
        var invoker = script().then((payload, context) -> {
            throw new IllegalStateException("cluster is gone");
        });
        var run = run(
                """
                {"StartAt": "X", "States": {
                  "X": {"Type": "Task", "Resource": "F",
                        "Catch": [{"ErrorEquals": ["java.lang.IllegalStateException"], "Next": "H"}], "End": true},
                  "H": {"Type": "Pass", "End": true}}}""",
                "{}",
                invoker);
        assertThat(run.output().get("Error").textValue()).isEqualTo("java.lang.IllegalStateException");
        assertThat(json(run.output().get("Cause").textValue())
                        .get("errorMessage")
                        .textValue())
                .isEqualTo("cluster is gone");
    }
}
