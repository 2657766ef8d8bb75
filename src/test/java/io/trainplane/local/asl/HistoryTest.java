package io.trainplane.local.asl;

import static io.trainplane.local.asl.AslTesting.json;
import static io.trainplane.local.asl.AslTesting.run;
import static io.trainplane.local.asl.AslTesting.script;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** History events with AWS's types and details, transitions, the listener, aborts and limits. */
class HistoryTest {
    private static final String PIPELINE =
            """
            {"StartAt": "Work", "States": {
              "Work": {"Type": "Task", "Resource": "arn:aws:states:::lambda:invoke",
                       "Parameters": {"FunctionName": "Start", "Payload.$": "$"},
                       "Catch": [{"ErrorEquals": ["States.ALL"], "Next": "Recover"}], "Next": "Rest"},
              "Rest": {"Type": "Wait", "Seconds": 5, "Next": "Shape"},
              "Shape": {"Type": "Pass", "Result": {"ok": true}, "Next": "Done"},
              "Recover": {"Type": "Pass", "Next": "Done"},
              "Done": {"Type": "Succeed"}}}""";

    @Test
    void aSuccessfulExecutionRecordsAwsEventTypesInOrder() {
        var run = run(PIPELINE, "{\"runId\": \"r1\"}", script().returns("{\"Payload\": 1}"));
        assertThat(run.types())
                .containsExactly(
                        "ExecutionStarted",
                        "TaskStateEntered",
                        "TaskScheduled",
                        "TaskStarted",
                        "TaskSucceeded",
                        "TaskStateExited",
                        "WaitStateEntered",
                        "WaitStateExited",
                        "PassStateEntered",
                        "PassStateExited",
                        "SucceedStateEntered",
                        "SucceedStateExited",
                        "ExecutionSucceeded");
        List<HistoryEvent> events = run.result().history();
        for (int i = 0; i < events.size(); i++) {
            assertThat(events.get(i).id()).isEqualTo(i + 1);
            assertThat(events.get(i).previousEventId()).isEqualTo(i);
            if (i > 0) {
                assertThat(events.get(i).timestamp())
                        .isAfterOrEqualTo(events.get(i - 1).timestamp());
            }
        }
        assertThat(run.result().stateTransitions()).isEqualTo(4);
        assertThat(run.result().startDate()).isEqualTo(AslTesting.T0);
        assertThat(run.result().stopDate()).isEqualTo(AslTesting.T0.plusSeconds(5));
    }

    @Test
    void eventDetailsCarryInputsOutputsAndTheResource() {
        var run = run(PIPELINE, "{\"runId\": \"r1\"}", script().returns("{\"Payload\": 1}"));
        var result = run.result();
        assertThat(result.events("ExecutionStarted").get(0).details().get("input"))
                .isEqualTo(json("{\"runId\": \"r1\"}"));
        HistoryEvent entered = result.events("TaskStateEntered").get(0);
        assertThat(entered.stateName()).isEqualTo("Work");
        assertThat(entered.details()).isEqualTo(json("{\"name\": \"Work\", \"input\": {\"runId\": \"r1\"}}"));
        HistoryEvent scheduled = result.events("TaskScheduled").get(0);
        assertThat(scheduled.details().get("resourceType").textValue()).isEqualTo("lambda");
        assertThat(scheduled.details().get("resource").textValue()).isEqualTo("invoke");
        assertThat(scheduled.details().get("parameters"))
                .isEqualTo(json("{\"FunctionName\": \"Start\", \"Payload\": {\"runId\": \"r1\"}}"));
        assertThat(result.events("TaskSucceeded").get(0).details().get("output"))
                .isEqualTo(json("{\"Payload\": 1}"));
        assertThat(result.events("PassStateExited").get(0).details())
                .isEqualTo(json("{\"name\": \"Shape\", \"output\": {\"ok\": true}}"));
        assertThat(result.events("ExecutionSucceeded").get(0).details().get("output"))
                .isEqualTo(json("{\"ok\": true}"));
        assertThat(result.output()).isEqualTo(json("{\"ok\": true}"));
    }

    @Test
    void aFailedTaskRecordsItsErrorAndCause() {
        var run = run(PIPELINE, "{}", script().fails("io.trainplane.core.TerminalException", "spec invalid"));
        HistoryEvent failed = run.result().events("TaskFailed").get(0);
        assertThat(failed.details().get("error").textValue()).isEqualTo("io.trainplane.core.TerminalException");
        assertThat(failed.details().get("cause").textValue()).isEqualTo("spec invalid");
        assertThat(run.types()).containsSubsequence("TaskFailed", "TaskStateExited", "PassStateEntered");
        assertThat(run.result().events("PassStateEntered"))
                .extracting(HistoryEvent::stateName)
                .containsExactly("Recover");
    }

    @Test
    void aFailStateEndsTheExecutionWithItsErrorAndCause() {
        var run = run(
                """
                {"StartAt": "F", "States": {"F": {"Type": "Fail", "Error": "RunFailed", "Cause": "see the run record"}}}""",
                "{}",
                script());
        assertThat(run.result().status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(run.result().error()).isEqualTo("RunFailed");
        assertThat(run.result().cause()).isEqualTo("see the run record");
        assertThat(run.types()).containsExactly("ExecutionStarted", "FailStateEntered", "ExecutionFailed");
        assertThat(run.result().events("ExecutionFailed").get(0).details())
                .isEqualTo(json("{\"error\": \"RunFailed\", \"cause\": \"see the run record\"}"));
        assertThat(run.result().stateTransitions()).isEqualTo(1);
    }

    @Test
    void errorPathAndCausePathReadTheInput() {
        var run = run(
                """
                {"StartAt": "F", "States": {"F": {"Type": "Fail", "ErrorPath": "$.failure.Error",
                  "CausePath": "States.Format('{} failed: {}', $.state, $.failure.Cause)"}}}""",
                "{\"state\": \"CreateCluster\", \"failure\": {\"Error\": \"E\", \"Cause\": \"quota\"}}",
                script());
        assertThat(run.result().error()).isEqualTo("E");
        assertThat(run.result().cause()).isEqualTo("CreateCluster failed: quota");
    }

    @Test
    void abortOnEnteringStopsTheExecutionWithoutRunningTheStateOrACatch() {
        var invoker = script().returns("{}");
        List<String> asked = new ArrayList<>();
        var run = run(
                """
                {"StartAt": "First", "States": {
                  "First": {"Type": "Task", "Resource": "F", "Next": "Second"},
                  "Second": {"Type": "Task", "Resource": "F",
                             "Catch": [{"ErrorEquals": ["States.ALL"], "Next": "Cleanup"}], "Next": "Done"},
                  "Cleanup": {"Type": "Pass", "Next": "Done"},
                  "Done": {"Type": "Succeed"}}}""",
                "{}",
                invoker,
                new ExecutionListener() {
                    @Override
                    public boolean abortOnEntering(String stateName) {
                        asked.add(stateName);
                        return stateName.equals("Second");
                    }
                });
        assertThat(run.result().status()).isEqualTo(ExecutionStatus.ABORTED);
        assertThat(run.result().history().getLast().type()).isEqualTo("ExecutionAborted");
        assertThat(asked).containsExactly("First", "Second");
        assertThat(invoker.calls()).isEqualTo(1);
        assertThat(run.result().history()).extracting(HistoryEvent::stateName).doesNotContain("Second", "Cleanup");
        assertThat(run.result().output()).isNull();
        assertThat(run.result().stateTransitions()).isEqualTo(1);
    }

    @Test
    void theListenerSeesEveryEventAsItIsRecorded() {
        List<HistoryEvent> seen = new ArrayList<>();
        var run = run(PIPELINE, "{}", script().returns("{}"), new ExecutionListener() {
            @Override
            public void onEvent(HistoryEvent event) {
                seen.add(event);
            }
        });
        assertThat(seen).isEqualTo(run.result().history());
    }

    @Test
    void anExecutionCannotExceedTwentyFiveThousandEvents() {
        var run = run(
                """
                {"StartAt": "Loop", "States": {
                  "Loop": {"Type": "Pass", "Next": "Again?"},
                  "Again?": {"Type": "Choice", "Choices": [{"Variable": "$.stop", "IsPresent": true, "Next": "Done"}],
                             "Default": "Loop"},
                  "Done": {"Type": "Succeed"}}}""",
                "{}",
                script());
        assertThat(run.result().status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(run.result().error()).isEqualTo("States.Runtime");
        assertThat(run.result().history()).hasSize(25_000);
        assertThat(run.result().history().getLast().type()).isEqualTo("ExecutionFailed");
    }
}
