package io.trainplane.local.asl;

import static io.trainplane.local.asl.AslTesting.T0;
import static io.trainplane.local.asl.AslTesting.json;
import static io.trainplane.local.asl.AslTesting.run;
import static io.trainplane.local.asl.AslTesting.script;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Wait: Seconds, SecondsPath, Timestamp, TimestampPath on simulated time; the execution timeout. */
class WaitTest {
    private static String waitThenSucceed(String waitFields) {
        return """
                {"StartAt": "W", "States": {
                  "W": {"Type": "Wait", %s, "Next": "Done"},
                  "Done": {"Type": "Succeed"}}}"""
                .formatted(waitFields);
    }

    @Test
    void secondsAdvancesTheSimulatedClockByExactlyThatWithoutSleeping() {
        long wallStart = System.nanoTime();
        var run = run(waitThenSucceed("\"Seconds\": 86400"), "{\"a\": 1}", script());
        Duration wall = Duration.ofNanos(System.nanoTime() - wallStart);
        assertThat(run.clock().instant()).isEqualTo(T0.plus(Duration.ofDays(1)));
        assertThat(run.secondsOf("WaitStateEntered")).containsExactly(0L);
        assertThat(run.secondsOf("WaitStateExited")).containsExactly(86400L);
        assertThat(run.output()).isEqualTo(json("{\"a\": 1}"));
        assertThat(wall).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void secondsPathReadsTheWaitFromTheEffectiveInput() {
        var run = run(
                waitThenSucceed("\"InputPath\": \"$.poll\", \"SecondsPath\": \"$.waitSeconds\""),
                "{\"poll\": {\"waitSeconds\": 45}, \"x\": 1}",
                script());
        assertThat(run.clock().instant()).isEqualTo(T0.plusSeconds(45));
        assertThat(run.output()).isEqualTo(json("{\"waitSeconds\": 45}"));
    }

    @Test
    void timestampWaitsUntilThatInstantAndAPastTimestampDoesNotWait() {
        assertThat(run(waitThenSucceed("\"Timestamp\": \"2024-05-01T12:30:00Z\""), "{}", script())
                        .clock()
                        .instant())
                .isEqualTo(T0.plus(Duration.ofMinutes(30)));
        assertThat(run(waitThenSucceed("\"Timestamp\": \"2024-05-01T11:00:00Z\""), "{}", script())
                        .clock()
                        .instant())
                .isEqualTo(T0);
    }

    @Test
    void timestampPathReadsAnRfc3339Timestamp() {
        var run = run(
                waitThenSucceed("\"TimestampPath\": \"$.until\""),
                "{\"until\": \"2024-05-01T14:00:00+01:00\"}",
                script());
        assertThat(run.clock().instant()).isEqualTo(T0.plus(Duration.ofHours(1)));
    }

    @Test
    void aSecondsPathValueThatIsNotANonNegativeIntegerIsAStatesRuntimeError() {
        for (String input : new String[] {"{\"s\": -1}", "{\"s\": \"10\"}", "{\"s\": 1.5}", "{}"}) {
            var run = run(waitThenSucceed("\"SecondsPath\": \"$.s\""), input, script());
            assertThat(run.result().status()).as(input).isEqualTo(ExecutionStatus.FAILED);
            assertThat(run.result().error()).as(input).isEqualTo("States.Runtime");
            assertThat(run.clock().instant()).as(input).isEqualTo(T0);
        }
    }

    @Test
    void aWaitPastTheExecutionTimeoutTimesTheExecutionOutAtTheDeadline() {
        var run = run(
                """
                {"StartAt": "W", "TimeoutSeconds": 600, "States": {
                  "W": {"Type": "Wait", "Seconds": 3600, "Next": "Done"},
                  "Done": {"Type": "Succeed"}}}""",
                "{}",
                script());
        assertThat(run.result().status()).isEqualTo(ExecutionStatus.TIMED_OUT);
        assertThat(run.result().error()).isEqualTo("States.Timeout");
        assertThat(run.clock().instant()).isEqualTo(T0.plusSeconds(600));
        assertThat(run.result().stopDate()).isEqualTo(T0.plusSeconds(600));
        assertThat(run.types()).containsExactly("ExecutionStarted", "WaitStateEntered", "ExecutionTimedOut");
    }

    @Test
    void aPollingLoopWithinTheTimeoutCompletes() {
        var invoker = script().returns("{\"done\": false, \"wait\": 30}")
                .returns("{\"done\": false, \"wait\": 30}")
                .returns("{\"done\": true, \"wait\": 30}");
        var run = run(
                """
                {"StartAt": "Check", "TimeoutSeconds": 600, "States": {
                  "Check": {"Type": "Task", "Resource": "F", "Next": "Done?"},
                  "Done?": {"Type": "Choice", "Choices": [{"Variable": "$.done", "BooleanEquals": true, "Next": "End"}],
                            "Default": "Sleep"},
                  "Sleep": {"Type": "Wait", "SecondsPath": "$.wait", "Next": "Check"},
                  "End": {"Type": "Succeed"}}}""",
                "{}",
                invoker);
        assertThat(run.result().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(run.secondsOf("TaskScheduled")).containsExactly(0L, 30L, 60L);
        assertThat(run.result().stateTransitions()).isEqualTo(3 + 3 + 2 + 1);
    }
}
