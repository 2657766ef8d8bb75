package io.trainplane.local.asl;

import static io.trainplane.local.asl.AslTesting.json;
import static io.trainplane.local.asl.AslTesting.run;
import static io.trainplane.local.asl.AslTesting.script;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Retry: retrier order, per-retrier counts, backoff, MaxDelaySeconds, jitter, what matches what. */
class RetryTest {
    private static String taskWithRetry(String retry) {
        return """
                {"StartAt": "X", "States": {
                  "X": {"Type": "Task", "Resource": "arn:aws:lambda:local:000000000000:function:X",
                        "Retry": %s,
                        "Catch": [{"ErrorEquals": ["States.ALL"], "Next": "Z"}], "Next": "Y"},
                  "Y": {"Type": "Succeed"},
                  "Z": {"Type": "Pass", "End": true}}}"""
                .formatted(retry);
    }

    /** Seconds between consecutive TaskScheduled events: the waits before each retry. */
    private static List<Long> waits(AslTesting.Run run) {
        List<Long> at = run.secondsOf("TaskScheduled");
        List<Long> waits = new ArrayList<>();
        for (int i = 1; i < at.size(); i++) {
            waits.add(at.get(i) - at.get(i - 1));
        }
        return waits;
    }

    @Test
    void backoffMultipliesTheIntervalOnEachRetry() {
        var invoker =
                script().fails("E", "c1").fails("E", "c2").fails("E", "c3").returns("{}");
        var run = run(
                taskWithRetry(
                        """
                [{"ErrorEquals": ["E"], "IntervalSeconds": 3, "MaxAttempts": 3, "BackoffRate": 2}]"""),
                "{}",
                invoker);
        assertThat(waits(run)).containsExactly(3L, 6L, 12L);
        assertThat(run.result().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(Duration.between(AslTesting.T0, run.clock().instant())).isEqualTo(Duration.ofSeconds(21));
        assertThat(invoker.calls()).isEqualTo(4);
    }

    @Test
    void maxDelaySecondsCapsTheInterval() {
        var invoker = script().fails("E", null)
                .fails("E", null)
                .fails("E", null)
                .fails("E", null)
                .returns("{}");
        var run = run(
                taskWithRetry(
                        """
                [{"ErrorEquals": ["E"], "IntervalSeconds": 3, "MaxAttempts": 4, "BackoffRate": 2,
                  "MaxDelaySeconds": 5}]"""),
                "{}",
                invoker);
        assertThat(waits(run)).containsExactly(3L, 5L, 5L, 5L);
    }

    @Test
    void defaultsAreOneSecondBackoffTwoAndThreeAttempts() {
        var invoker =
                script().fails("E", null).fails("E", null).fails("E", null).fails("E", "last");
        var run = run(taskWithRetry("[{\"ErrorEquals\": [\"E\"]}]"), "{}", invoker);
        assertThat(waits(run)).containsExactly(1L, 2L, 4L);
        assertThat(invoker.calls()).isEqualTo(4);
        assertThat(run.types()).contains("PassStateEntered");
    }

    @Test
    void eachRetrierKeepsItsOwnCountAndTheFirstMatchingRetrierDecides() {
        // The AWS developer guide's example: errors ErrorA, ErrorB, ErrorC, ErrorB.
        var invoker = script().fails("ErrorA", null)
                .fails("ErrorB", null)
                .fails("ErrorC", null)
                .fails("ErrorB", null);
        var run = run(
                taskWithRetry(
                        """
                [{"ErrorEquals": ["ErrorA", "ErrorB"], "IntervalSeconds": 1, "BackoffRate": 2.0, "MaxAttempts": 2},
                 {"ErrorEquals": ["ErrorC"], "IntervalSeconds": 5}]"""),
                "{}",
                invoker);
        assertThat(waits(run)).containsExactly(1L, 2L, 5L);
        assertThat(invoker.calls()).isEqualTo(4);
        assertThat(run.result().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(run.result().events("PassStateEntered")).hasSize(1);
        assertThat(run.output()).isEqualTo(json("{\"Error\": \"ErrorB\"}"));
    }

    @Test
    void anExhaustedRetrierDoesNotFallThroughToALaterOne() {
        var invoker = script().fails("States.Timeout", null);
        var run = run(
                taskWithRetry(
                        """
                [{"ErrorEquals": ["States.Timeout"], "MaxAttempts": 0}, {"ErrorEquals": ["States.ALL"]}]"""),
                "{}",
                invoker);
        assertThat(invoker.calls()).isEqualTo(1);
        assertThat(run.output().get("Error").textValue()).isEqualTo("States.Timeout");
    }

    @Test
    void statesAllRetriesAnyOtherError() {
        var invoker = script().fails("Lambda.ServiceException", null).returns("{\"ok\": 1}");
        var run = run(
                taskWithRetry(
                        """
                [{"ErrorEquals": ["States.Timeout"], "MaxAttempts": 0}, {"ErrorEquals": ["States.ALL"]}]"""),
                "{}",
                invoker);
        assertThat(invoker.calls()).isEqualTo(2);
        assertThat(run.output()).isEqualTo(json("{\"ok\": 1}"));
    }

    @Test
    void statesTaskFailedMatchesTaskErrorsButNotStatesTimeout() {
        String retry = "[{\"ErrorEquals\": [\"States.TaskFailed\"], \"MaxAttempts\": 1}]";
        var custom =
                script().fails("io.trainplane.core.TransientException", null).returns("{}");
        assertThat(run(taskWithRetry(retry), "{}", custom).result().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(custom.calls()).isEqualTo(2);

        var timeout = script().fails("States.Timeout", null);
        run(taskWithRetry(retry), "{}", timeout);
        assertThat(timeout.calls()).isEqualTo(1);
    }

    @Test
    void retryCountReachesTheTaskTheContextObjectAndTheListener() {
        List<Integer> attempts = new ArrayList<>();
        var invoker = script().fails("E", null).fails("E", null).returns("{}");
        var run = run(
                """
                {"StartAt": "X", "States": {"X": {"Type": "Task", "Resource": "F",
                  "Parameters": {"retry.$": "$$.State.RetryCount"},
                  "Retry": [{"ErrorEquals": ["E"]}], "End": true}}}""",
                "{}",
                invoker,
                new ExecutionListener() {
                    @Override
                    public void beforeTask(String stateName, int attempt) {
                        attempts.add(attempt);
                    }
                });
        assertThat(invoker.payloads)
                .containsExactly(json("{\"retry\": 0}"), json("{\"retry\": 1}"), json("{\"retry\": 2}"));
        assertThat(invoker.contexts).extracting(TaskContext::retryCount).containsExactly(0, 1, 2);
        assertThat(invoker.contexts).extracting(TaskContext::enteredTime).containsOnly(AslTesting.T0);
        assertThat(attempts).containsExactly(0, 1, 2);
        assertThat(run.result().stateTransitions()).isEqualTo(3);
    }

    @Test
    void fullJitterWaitsBetweenZeroAndTheComputedIntervalAndRepeatsForTheSameExecutionName() {
        String definition = taskWithRetry(
                """
                [{"ErrorEquals": ["E"], "IntervalSeconds": 10, "MaxAttempts": 3, "BackoffRate": 2,
                  "JitterStrategy": "FULL"}]""");
        var first = run(
                definition,
                "{}",
                script().fails("E", null).fails("E", null).fails("E", null).returns("{}"));
        var second = run(
                definition,
                "{}",
                script().fails("E", null).fails("E", null).fails("E", null).returns("{}"));
        List<Duration> waits = new ArrayList<>();
        List<HistoryEvent> scheduled = first.result().events("TaskScheduled");
        for (int i = 1; i < scheduled.size(); i++) {
            waits.add(Duration.between(
                    scheduled.get(i - 1).timestamp(), scheduled.get(i).timestamp()));
        }
        assertThat(waits).hasSize(3);
        assertThat(waits.get(0)).isBetween(Duration.ZERO, Duration.ofSeconds(10));
        assertThat(waits.get(1)).isBetween(Duration.ZERO, Duration.ofSeconds(20));
        assertThat(waits.get(2)).isBetween(Duration.ZERO, Duration.ofSeconds(40));
        assertThat(waits).doesNotContain(Duration.ofSeconds(10), Duration.ofSeconds(20), Duration.ofSeconds(40));
        assertThat(second.clock().instant()).isEqualTo(first.clock().instant());
    }

    @Test
    void eachRetryIsAStateTransition() {
        var run = run(
                taskWithRetry("[{\"ErrorEquals\": [\"E\"], \"MaxAttempts\": 2}]"),
                "{}",
                script().fails("E", null).fails("E", null).returns("{}"));
        // X entered once + 2 retries + Y entered.
        assertThat(run.result().stateTransitions()).isEqualTo(4);
        assertThat(run.result().events("TaskStateEntered")).hasSize(1);
        assertThat(run.result().events("TaskFailed")).hasSize(2);
    }

    @Test
    void statesRuntimeIsNeverRetried() {
        var invoker = script();
        var run = run(
                """
                {"StartAt": "X", "States": {"X": {"Type": "Task", "Resource": "F",
                  "Parameters": {"v.$": "$.absent"},
                  "Retry": [{"ErrorEquals": ["States.ALL"]}], "End": true}}}""",
                "{}",
                invoker);
        assertThat(run.result().error()).isEqualTo("States.Runtime");
        assertThat(invoker.calls()).isZero();
        assertThat(run.clock().instant()).isEqualTo(AslTesting.T0);
    }
}
