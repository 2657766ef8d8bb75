package io.trainplane.local.asl;

import static io.trainplane.local.asl.AslTesting.json;
import static io.trainplane.local.asl.AslTesting.run;
import static io.trainplane.local.asl.AslTesting.script;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Choice: every comparison operator, And/Or/Not, Default, NoChoiceMatched, missing variables. */
class ChoiceTest {
    /** A Choice whose single rule leads to "Yes", with Default "No". */
    private static String choice(String rule) {
        return """
                {"StartAt": "C", "States": {
                  "C": {"Type": "Choice", "Choices": [%s], "Default": "No"},
                  "Yes": {"Type": "Succeed"},
                  "No": {"Type": "Succeed"}}}"""
                .formatted(((ObjectNode) json(rule)).put("Next", "Yes"));
    }

    private static String branch(String rule, String input) {
        var run = run(choice(rule), input, script());
        assertThat(run.result().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        return run.result().events("SucceedStateEntered").get(0).stateName();
    }

    @ParameterizedTest(name = "{0} on {1} → {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"Variable\": \"$.v\", \"StringEquals\": \"gpu\"}                  | {\"v\": \"gpu\"}        | Yes",
                "{\"Variable\": \"$.v\", \"StringEquals\": \"gpu\"}                  | {\"v\": \"cpu\"}        | No",
                "{\"Variable\": \"$.v\", \"StringEquals\": \"1\"}                    | {\"v\": 1}              | No",
                "{\"Variable\": \"$.v\", \"StringEqualsPath\": \"$.w\"}              | {\"v\": \"a\", \"w\": \"a\"} | Yes",
                "{\"Variable\": \"$.v\", \"StringEqualsPath\": \"$.w\"}              | {\"v\": \"a\", \"w\": \"b\"} | No",
                "{\"Variable\": \"$.v\", \"StringMatches\": \"log-*.txt\"}           | {\"v\": \"log-2023.txt\"} | Yes",
                "{\"Variable\": \"$.v\", \"StringMatches\": \"log-*.txt\"}           | {\"v\": \"log-2023.csv\"} | No",
                "{\"Variable\": \"$.v\", \"StringMatches\": \"a\\\\*b\"}             | {\"v\": \"a*b\"}         | Yes",
                "{\"Variable\": \"$.v\", \"StringMatches\": \"a\\\\*b\"}             | {\"v\": \"axxb\"}        | No",
                "{\"Variable\": \"$.v\", \"NumericEquals\": 1}                       | {\"v\": 1.0}             | Yes",
                "{\"Variable\": \"$.v\", \"NumericEquals\": 1}                       | {\"v\": \"1\"}           | No",
                "{\"Variable\": \"$.v\", \"NumericEqualsPath\": \"$.w\"}             | {\"v\": 3, \"w\": 3}      | Yes",
                "{\"Variable\": \"$.v\", \"NumericEqualsPath\": \"$.w\"}             | {\"v\": 3, \"w\": 4}      | No",
                "{\"Variable\": \"$.v\", \"NumericLessThan\": 10}                    | {\"v\": 9.5}             | Yes",
                "{\"Variable\": \"$.v\", \"NumericLessThan\": 10}                    | {\"v\": 10}              | No",
                "{\"Variable\": \"$.v\", \"NumericLessThan\": 10}                    | {\"v\": \"5\"}           | No",
                "{\"Variable\": \"$.v\", \"NumericLessThanEquals\": 10}              | {\"v\": 10}              | Yes",
                "{\"Variable\": \"$.v\", \"NumericLessThanEquals\": 10}              | {\"v\": 11}              | No",
                "{\"Variable\": \"$.v\", \"NumericGreaterThan\": 0.7}                | {\"v\": 0.71}            | Yes",
                "{\"Variable\": \"$.v\", \"NumericGreaterThan\": 0.7}                | {\"v\": 0.7}             | No",
                "{\"Variable\": \"$.v\", \"NumericGreaterThanEquals\": 0.7}          | {\"v\": 0.7}             | Yes",
                "{\"Variable\": \"$.v\", \"NumericGreaterThanEquals\": 0.7}          | {\"v\": 0.69}            | No",
                "{\"Variable\": \"$.v\", \"BooleanEquals\": true}                    | {\"v\": true}            | Yes",
                "{\"Variable\": \"$.v\", \"BooleanEquals\": true}                    | {\"v\": \"true\"}        | No",
                "{\"Variable\": \"$.v\", \"IsPresent\": true}                        | {\"v\": null}            | Yes",
                "{\"Variable\": \"$.v\", \"IsPresent\": true}                        | {\"w\": 1}               | No",
                "{\"Variable\": \"$.v\", \"IsPresent\": false}                       | {\"w\": 1}               | Yes",
                "{\"Variable\": \"$.v\", \"IsNull\": true}                           | {\"v\": null}            | Yes",
                "{\"Variable\": \"$.v\", \"IsNull\": true}                           | {\"v\": 0}               | No",
                "{\"Variable\": \"$.v\", \"IsString\": true}                         | {\"v\": \"s\"}           | Yes",
                "{\"Variable\": \"$.v\", \"IsString\": false}                        | {\"v\": \"s\"}           | No",
                "{\"Variable\": \"$.v\", \"IsNumeric\": true}                        | {\"v\": 2}               | Yes",
                "{\"Variable\": \"$.v\", \"IsNumeric\": true}                        | {\"v\": \"2\"}           | No",
                "{\"Variable\": \"$.v\", \"IsBoolean\": true}                        | {\"v\": false}           | Yes",
                "{\"Variable\": \"$.v\", \"IsBoolean\": true}                        | {\"v\": 0}               | No",
            })
    void comparisonOperators(String rule, String input, String expected) {
        assertThat(branch(rule, input)).isEqualTo(expected);
    }

    @Test
    void andOrNotCombineNestedRules() {
        String and =
                """
                {"And": [{"Variable": "$.value", "NumericGreaterThanEquals": 20},
                         {"Variable": "$.value", "NumericLessThan": 30}]}""";
        assertThat(branch(and, "{\"value\": 25}")).isEqualTo("Yes");
        assertThat(branch(and, "{\"value\": 30}")).isEqualTo("No");
        String or =
                "{\"Or\": [{\"Variable\": \"$.t\", \"StringEquals\": \"a\"}, {\"Variable\": \"$.t\", \"StringEquals\": \"b\"}]}";
        assertThat(branch(or, "{\"t\": \"b\"}")).isEqualTo("Yes");
        assertThat(branch(or, "{\"t\": \"c\"}")).isEqualTo("No");
        String not = "{\"Not\": {\"Variable\": \"$.type\", \"StringEquals\": \"Private\"}}";
        assertThat(branch(not, "{\"type\": \"Public\"}")).isEqualTo("Yes");
        assertThat(branch(not, "{\"type\": \"Private\"}")).isEqualTo("No");
    }

    @Test
    void andStopsAtTheFirstFalseRuleSoAGuardedMissingVariableIsNoError() {
        String guarded =
                "{\"And\": [{\"Variable\": \"$.v\", \"IsPresent\": true}, {\"Variable\": \"$.v\", \"NumericEquals\": 1}]}";
        assertThat(branch(guarded, "{}")).isEqualTo("No");
    }

    @Test
    void theFirstMatchingChoiceWinsInOrder() {
        var run = run(
                """
                {"StartAt": "C", "States": {
                  "C": {"Type": "Choice", "Choices": [
                          {"Variable": "$.n", "NumericGreaterThan": 1, "Next": "First"},
                          {"Variable": "$.n", "NumericGreaterThan": 0, "Next": "Second"}]},
                  "First": {"Type": "Succeed"}, "Second": {"Type": "Succeed"}}}""",
                "{\"n\": 5}",
                script());
        assertThat(run.result().events("SucceedStateEntered"))
                .extracting(HistoryEvent::stateName)
                .containsExactly("First");
    }

    @Test
    void noMatchAndNoDefaultFailsWithNoChoiceMatched() {
        var run = run(
                """
                {"StartAt": "C", "States": {
                  "C": {"Type": "Choice", "Choices": [{"Variable": "$.n", "NumericEquals": 1, "Next": "D"}]},
                  "D": {"Type": "Succeed"}}}""",
                "{\"n\": 2}",
                script());
        assertThat(run.result().status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(run.result().error()).isEqualTo("States.NoChoiceMatched");
        assertThat(run.types()).containsExactly("ExecutionStarted", "ChoiceStateEntered", "ExecutionFailed");
    }

    @Test
    void aVariableThatNamesNothingIsAStatesRuntimeError() {
        var run = run(choice("{\"Variable\": \"$.missing\", \"StringEquals\": \"x\"}"), "{}", script());
        assertThat(run.result().status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(run.result().error()).isEqualTo("States.Runtime");
        assertThat(run.result().cause()).contains("Invalid path '$.missing'");
    }

    @Test
    void inputPathFeedsTheRulesAndOutputPathShapesTheOutput() {
        var run = run(
                """
                {"StartAt": "C", "States": {
                  "C": {"Type": "Choice", "InputPath": "$.status", "OutputPath": "$.detail",
                        "Choices": [{"Variable": "$.phase", "StringEquals": "ACTIVE", "Next": "Done"}],
                        "Default": "Done"},
                  "Done": {"Type": "Succeed"}}}""",
                "{\"status\": {\"phase\": \"ACTIVE\", \"detail\": {\"nodes\": 2}}, \"other\": 1}",
                script());
        assertThat(run.output()).isEqualTo(json("{\"nodes\": 2}"));
        assertThat(run.result().events("ChoiceStateExited").get(0).details().get("output"))
                .isEqualTo(json("{\"nodes\": 2}"));
        assertThat(run.types())
                .containsSubsequence(List.of("ChoiceStateEntered", "ChoiceStateExited", "SucceedStateEntered"));
    }
}
