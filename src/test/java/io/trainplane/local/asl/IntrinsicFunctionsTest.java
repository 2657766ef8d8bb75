package io.trainplane.local.asl;

import static io.trainplane.local.asl.AslTesting.json;
import static io.trainplane.local.asl.AslTesting.run;
import static io.trainplane.local.asl.AslTesting.script;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** Intrinsic functions in Parameters, with the ASL specification's examples. */
class IntrinsicFunctionsTest {
    /** The payload a Pass state's Parameters build from the input. */
    private static AslTesting.Run pass(String parameters, String input) {
        return run(
                "{\"StartAt\": \"P\", \"States\": {\"P\": {\"Type\": \"Pass\", \"Parameters\": " + parameters
                        + ", \"End\": true}}}",
                input,
                script());
    }

    private static JsonNode value(String expression, String input) {
        var run = pass("{\"v.$\": " + AslTesting.MAPPER.valueToTree(expression) + "}", input);
        assertThat(run.result().status()).as(run.result().cause()).isEqualTo(ExecutionStatus.SUCCEEDED);
        return run.output().get("v");
    }

    @Test
    void formatInterpolatesStringsNumbersAndPaths() {
        assertThat(value(
                        "States.Format('Your name is {}, we are in the year {}', $.name, 2020)",
                        "{\"name\": \"Foo\", \"zebra\": \"stripe\"}"))
                .isEqualTo(json("\"Your name is Foo, we are in the year 2020\""));
        assertThat(value(
                        "States.Format($.template, $.name)",
                        "{\"name\": \"Arnav\", \"template\": \"Hello, my name is {}.\"}"))
                .isEqualTo(json("\"Hello, my name is Arnav.\""));
        assertThat(value("States.Format('{} {} {}', $.b, $.n, $.z)", "{\"b\": true, \"n\": null, \"z\": 1.5}"))
                .isEqualTo(json("\"true null 1.5\""));
    }

    @Test
    void formatHonoursEscapes() {
        assertThat(value(
                        "States.Format('Welcome to {} {}\\'s playlist.', $.firstName, $.lastName)",
                        "{\"firstName\": \"John\", \"lastName\": \"Doe\"}"))
                .isEqualTo(json("\"Welcome to John Doe's playlist.\""));
        assertThat(value("States.Format('literal \\{\\} and {} and \\\\', $.x)", "{\"x\": \"X\"}"))
                .isEqualTo(json("\"literal {} and X and \\\\\""));
    }

    @Test
    void stringToJsonAndJsonToString() {
        assertThat(value("States.StringToJson($.someString)", "{\"someString\": \"{\\\"number\\\": 20}\"}"))
                .isEqualTo(json("{\"number\": 20}"));
        assertThat(value("States.JsonToString($.someJson)", "{\"someJson\": {\"name\": \"Foo\", \"year\": 2020}}"))
                .isEqualTo(json("\"{\\\"name\\\":\\\"Foo\\\",\\\"year\\\":2020}\""));
    }

    @Test
    void arrayCollectsItsArguments() {
        assertThat(value("States.Array('Foo', 2020, $.someJson, null)", "{\"someJson\": {\"random\": \"abcdefg\"}}"))
                .isEqualTo(json("[\"Foo\", 2020, {\"random\": \"abcdefg\"}, null]"));
        assertThat(value("States.Array()", "{}")).isEqualTo(json("[]"));
    }

    @Test
    void mathAddAddsIntegers() {
        assertThat(value("States.MathAdd($.value1, $.step)", "{\"value1\": 111, \"step\": -1}"))
                .isEqualTo(json("110"));
        assertThat(value("States.MathAdd($.n, 1)", "{\"n\": 41}")).isEqualTo(json("42"));
    }

    @Test
    void arrayLengthCountsElements() {
        assertThat(value("States.ArrayLength($.inputArray)", "{\"inputArray\": [1,2,3,4,5,6,7,8,9]}"))
                .isEqualTo(json("9"));
    }

    @Test
    void uuidIsAVersion4UuidDeterministicPerExecution() {
        String params = "{\"a.$\": \"States.UUID()\", \"b.$\": \"States.UUID()\"}";
        JsonNode first = pass(params, "{}").output();
        JsonNode again = pass(params, "{}").output();
        assertThat(first.get("a").textValue())
                .matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
        assertThat(first.get("a")).isNotEqualTo(first.get("b"));
        assertThat(again).isEqualTo(first);
    }

    @Test
    void nestedFunctionsAndContextPaths() {
        assertThat(value(
                        "States.Format('{} has {} items', $$.Execution.Name, States.ArrayLength($.items))",
                        "{\"items\": [1, 2]}"))
                .isEqualTo(json("\"run-1 has 2 items\""));
    }

    @Test
    void intrinsicsWorkInResultSelector() {
        var run = run(
                """
                {"StartAt": "T", "States": {"T": {"Type": "Task", "Resource": "F",
                  "ResultSelector": {"summary.$": "States.Format('{} nodes', $.nodes)"}, "End": true}}}""",
                "{}",
                script().returns("{\"nodes\": 4}"));
        assertThat(run.output()).isEqualTo(json("{\"summary\": \"4 nodes\"}"));
    }

    @Test
    void anIntrinsicFailureFailsTheExecutionWithStatesRuntime() {
        for (String expression : new String[] {
            "States.StringToJson($.s)",
            "States.MathAdd($.s, 1)",
            "States.ArrayLength($.s)",
            "States.Format('{}', $.missing)",
            "States.Format('{}', $.o)"
        }) {
            var run = pass("{\"v.$\": \"" + expression + "\"}", "{\"s\": \"not json\", \"o\": {\"a\": 1}}");
            assertThat(run.result().status()).as(expression).isEqualTo(ExecutionStatus.FAILED);
            assertThat(run.result().error()).as(expression).isEqualTo("States.Runtime");
            assertThat(run.result().cause()).as(expression).contains(expression.substring(0, expression.indexOf('(')));
        }
    }
}
