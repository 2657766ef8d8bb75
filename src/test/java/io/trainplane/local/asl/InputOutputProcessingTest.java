package io.trainplane.local.asl;

import static io.trainplane.local.asl.AslTesting.json;
import static io.trainplane.local.asl.AslTesting.run;
import static io.trainplane.local.asl.AslTesting.script;
import static io.trainplane.local.asl.AslTesting.single;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** InputPath → Parameters → task → ResultSelector → ResultPath → OutputPath, with AWS's documented examples. */
class InputOutputProcessingTest {
    private static final String DOC_INPUT =
            """
            {"comment": "This is a test of the input and output of a Task state.",
             "details": "Default example", "who": "AWS Step Functions"}""";
    private static final String GREETING = "\"Hello, AWS Step Functions!\"";

    private static String task(String fields) {
        return single("{\"Type\": \"Task\", \"Resource\": \"arn:aws:lambda:local:000000000000:function:Hello\", "
                + fields + (fields.isEmpty() ? "" : ", ") + "\"End\": true}");
    }

    @Test
    void resultPathDollarReplacesTheInputWithTheResult() {
        var run = run(task("\"ResultPath\": \"$\""), DOC_INPUT, script().returns(GREETING));
        assertThat(run.output()).isEqualTo(json(GREETING));
    }

    @Test
    void resultPathNullDiscardsTheResultAndPassesTheInput() {
        var run = run(task("\"ResultPath\": null"), DOC_INPUT, script().returns(GREETING));
        assertThat(run.output()).isEqualTo(json(DOC_INPUT));
    }

    @Test
    void resultPathFieldIncludesTheResultWithTheInput() {
        var run = run(task("\"ResultPath\": \"$.taskresult\""), DOC_INPUT, script().returns(GREETING));
        assertThat(run.output())
                .isEqualTo(
                        json(
                                """
                {"comment": "This is a test of the input and output of a Task state.",
                 "details": "Default example", "who": "AWS Step Functions",
                 "taskresult": "Hello, AWS Step Functions!"}"""));
    }

    @Test
    void resultPathUpdatesANodeInsideTheInput() {
        String input =
                """
                {"comment": "An input comment.", "data": {"val1": 23, "val2": 17},
                 "extra": "foo", "lambda": {"who": "AWS Step Functions"}}""";
        var run = run(task("\"ResultPath\": \"$.data.lambdaresult\""), input, script().returns(GREETING));
        assertThat(run.output())
                .isEqualTo(
                        json(
                                """
                {"comment": "An input comment.",
                 "data": {"val1": 23, "val2": 17, "lambdaresult": "Hello, AWS Step Functions!"},
                 "extra": "foo", "lambda": {"who": "AWS Step Functions"}}"""));
    }

    @Test
    void resultPathOverwritesAnExistingFieldAndCreatesMissingLevels() {
        String input = "{\"master\": {\"detail\": [1, 2, 3]}}";
        assertThat(run(task("\"ResultPath\": \"$.master.detail\""), input, script().returns("6"))
                        .output())
                .isEqualTo(json("{\"master\": {\"detail\": 6}}"));
        assertThat(run(task("\"ResultPath\": \"$.master.result.sum\""), input, script().returns("6"))
                        .output())
                .isEqualTo(json("{\"master\": {\"detail\": [1, 2, 3], \"result\": {\"sum\": 6}}}"));
    }

    @Test
    void inputPathSelectsWhatTheTaskGetsAndResultPathMergesIntoTheRawInput() {
        var invoker = script().returns("7");
        var run = run(
                task("\"InputPath\": \"$.numbers\", \"ResultPath\": \"$.sum\""),
                "{\"title\": \"Numbers to add\", \"numbers\": {\"val1\": 3, \"val2\": 4}}",
                invoker);
        assertThat(invoker.payloads).containsExactly(json("{\"val1\": 3, \"val2\": 4}"));
        assertThat(run.output())
                .isEqualTo(
                        json("{\"title\": \"Numbers to add\", \"numbers\": {\"val1\": 3, \"val2\": 4}, \"sum\": 7}"));
    }

    @Test
    void parametersBuildThePayloadFromTheEffectiveInput() {
        var invoker = script().returns("{}");
        run(
                task(
                        """
                "InputPath": "$.in",
                "Parameters": {"flagged": true, "parts": {"first.$": "$.vals[0]", "all.$": "$.vals"},
                               "list": [{"v.$": "$.vals[1]"}, "plain"]}"""),
                "{\"in\": {\"flagged\": 7, \"vals\": [0, 10, 20]}}",
                invoker);
        assertThat(invoker.payloads)
                .containsExactly(
                        json(
                                """
                {"flagged": true, "parts": {"first": 0, "all": [0, 10, 20]}, "list": [{"v": 10}, "plain"]}"""));
    }

    @Test
    void resultSelectorReshapesTheRawResultBeforeResultPath() {
        String result =
                """
                {"resourceType": "elasticmapreduce", "resource": "createCluster.sync",
                 "output": {"SdkHttpMetadata": {"HttpStatusCode": 200}, "ClusterId": "AKIAIOSFODNN7EXAMPLE"}}""";
        var run = run(
                task(
                        """
                "ResultSelector": {"ClusterId.$": "$.output.ClusterId", "ResourceType.$": "$.resourceType"},
                "ResultPath": "$.EMROutput\""""),
                "{\"a\": 1}",
                script().returns(result));
        assertThat(run.output())
                .isEqualTo(
                        json(
                                """
                {"a": 1, "EMROutput": {"ClusterId": "AKIAIOSFODNN7EXAMPLE", "ResourceType": "elasticmapreduce"}}"""));
    }

    @Test
    void outputPathSelectsFromTheCombinedOutput() {
        var run = run(
                task("\"ResultPath\": \"$.r\", \"OutputPath\": \"$.r.Payload\""),
                "{\"a\": 1}",
                script().returns("{\"Payload\": {\"ok\": true}, \"StatusCode\": 200}"));
        assertThat(run.output()).isEqualTo(json("{\"ok\": true}"));
    }

    @Test
    void nullInputPathAndOutputPathGiveEmptyObjects() {
        var invoker = script().returns("{\"x\": 1}");
        var run = run(task("\"InputPath\": null, \"OutputPath\": null"), "{\"a\": 1}", invoker);
        assertThat(invoker.payloads).containsExactly(json("{}"));
        assertThat(run.output()).isEqualTo(json("{}"));
    }

    @Test
    void passStateResultGoesToResultPath() {
        var run = run(
                single(
                        """
                {"Type": "Pass", "Result": {"x-datum": 0.381018, "y-datum": 622.2269926397355},
                 "ResultPath": "$.coords", "End": true}"""),
                "{\"georefOf\": \"Home\"}",
                script());
        assertThat(run.output())
                .isEqualTo(
                        json(
                                "{\"georefOf\": \"Home\", \"coords\": {\"x-datum\": 0.381018, \"y-datum\": 622.2269926397355}}"));
    }

    @Test
    void passStateWithParametersAndNoResultOutputsTheParameters() {
        var run = run(
                single(
                        """
                {"Type": "Pass", "InputPath": "$.spec", "Parameters": {"id.$": "$.runId", "kind": "train"},
                 "ResultPath": "$.derived", "End": true}"""),
                "{\"spec\": {\"runId\": \"r1\"}}",
                script());
        assertThat(run.output())
                .isEqualTo(json("{\"spec\": {\"runId\": \"r1\"}, \"derived\": {\"id\": \"r1\", \"kind\": \"train\"}}"));
    }

    @Test
    void parameterPathFailureFailsTheExecutionWithStatesRuntimeAndNoCatchRuns() {
        var invoker = script();
        var run = run(
                """
                {"StartAt": "S", "States": {
                  "S": {"Type": "Task", "Resource": "arn:aws:lambda:local:000000000000:function:F",
                        "Parameters": {"JobName.$": "$.JobName"},
                        "Catch": [{"ErrorEquals": ["States.ALL"], "Next": "Handler"}], "End": true},
                  "Handler": {"Type": "Pass", "End": true}}}""",
                "{}",
                invoker);
        assertThat(run.result().status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(run.result().error()).isEqualTo("States.Runtime");
        assertThat(run.result().cause())
                .isEqualTo("An error occurred while executing the state 'S' (entered at the"
                        + " event id #2). The JSONPath '$.JobName' specified for the field 'JobName.$' could not be found in"
                        + " the input '{}'");
        assertThat(invoker.calls()).isZero();
        assertThat(run.types())
                .doesNotContain("PassStateEntered")
                .containsExactly("ExecutionStarted", "TaskStateEntered", "ExecutionFailed");
    }

    @Test
    void inputPathThatNamesNothingIsAnUncatchableRuntimeError() {
        var run = run(
                """
                {"StartAt": "S", "States": {
                  "S": {"Type": "Task", "Resource": "F", "InputPath": "$.missing",
                        "Retry": [{"ErrorEquals": ["States.ALL"]}],
                        "Catch": [{"ErrorEquals": ["States.ALL"], "Next": "Handler"}], "End": true},
                  "Handler": {"Type": "Pass", "End": true}}}""",
                "{\"a\": 1}",
                script());
        assertThat(run.result().status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(run.result().error()).isEqualTo("States.Runtime");
        assertThat(run.result().cause()).contains("Invalid path '$.missing'");
        assertThat(run.types()).doesNotContain("PassStateEntered", "TaskScheduled");
    }

    @Test
    void resultPathThatCannotApplyIsAResultPathMatchFailureThatCatchHandles() {
        String definition =
                """
                {"StartAt": "S", "States": {
                  "S": {"Type": "Task", "Resource": "F", "ResultPath": "$.x",
                        "Catch": [{"ErrorEquals": ["States.ResultPathMatchFailure"], "ResultPath": "$", "Next": "H"}],
                        "End": true},
                  "H": {"Type": "Pass", "End": true}}}""";
        var run = run(definition, "\"foo\"", script().returns("1"));
        assertThat(run.result().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(run.output().get("Error").textValue()).isEqualTo("States.ResultPathMatchFailure");
        assertThat(run.output().get("Cause").textValue())
                .isEqualTo("Unable to apply ResultPath '$.x' to input '\"foo\"'");
    }
}
