package io.trainplane.local.asl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Loading refuses what the executor does not implement or what AWS would not accept, naming state and field. */
class StrictLoadingTest {
    private static final String VALID =
            """
            {"Comment": "c", "StartAt": "Start", "TimeoutSeconds": 3600, "QueryLanguage": "JSONPath", "States": {
              "Start": {"Type": "Task", "Resource": "${StartRunArn}", "Next": "Check"},
              "Check": {"Type": "Task", "Resource": "${CheckArn}", "Next": "Done?",
                        "Retry": [{"ErrorEquals": ["Lambda.ServiceException"], "JitterStrategy": "FULL"}],
                        "Catch": [{"ErrorEquals": ["States.ALL"], "ResultPath": "$.error", "Next": "Failed"}]},
              "Done?": {"Type": "Choice", "Choices": [{"Variable": "$.done", "BooleanEquals": true, "Next": "Ok"}],
                        "Default": "Sleep"},
              "Sleep": {"Type": "Wait", "SecondsPath": "$.wait", "Next": "Check"},
              "Ok": {"Type": "Succeed"},
              "Failed": {"Type": "Fail", "Error": "RunFailed"}}}""";
    private static final Map<String, String> SUBSTITUTIONS = Map.of(
            "StartRunArn", "arn:aws:lambda:local:000000000000:function:StartRun:live",
            "CheckArn", "arn:aws:lambda:local:000000000000:function:Check:live");

    private static AbstractThrowableAssert<?, ? extends Throwable> refuses(String definition) {
        return assertThatThrownBy(() -> StateMachine.parse(definition, Map.of()))
                .isInstanceOf(AslException.class);
    }

    private static void refuses(String definition, String state, String field) {
        Throwable thrown =
                org.assertj.core.api.Assertions.catchThrowable(() -> StateMachine.parse(definition, Map.of()));
        assertThat(thrown).isInstanceOf(AslException.class);
        AslException e = (AslException) thrown;
        assertThat(e.stateName()).as(e.getMessage()).isEqualTo(state);
        assertThat(e.field()).as(e.getMessage()).isEqualTo(field);
    }

    private static String task(String extra) {
        return AslTesting.single("{\"Type\": \"Task\", \"Resource\": \"F\", " + extra + ", \"End\": true}");
    }

    @Test
    void aValidDefinitionLoadsWithItsSubstitutions() {
        StateMachine machine = StateMachine.parse(VALID, SUBSTITUTIONS);
        assertThat(machine.startAt()).isEqualTo("Start");
        assertThat(machine.stateNames()).containsExactly("Start", "Check", "Done?", "Sleep", "Ok", "Failed");
        assertThat(machine.taskResources())
                .containsExactly(
                        "arn:aws:lambda:local:000000000000:function:StartRun:live",
                        "arn:aws:lambda:local:000000000000:function:Check:live");
        assertThat(machine.timeoutSeconds()).isEqualTo(3600);
        assertThat(machine.name()).isEqualTo("TrainingPipeline");
    }

    @Test
    void anUnresolvedPlaceholderIsRefusedWithItsLocation() {
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(
                () -> StateMachine.parse(VALID, Map.of("StartRunArn", "arn:x")));
        assertThat(thrown).isInstanceOf(AslException.class).hasMessageContaining("${CheckArn}");
        assertThat(((AslException) thrown).stateName()).isEqualTo("Check");
        assertThat(((AslException) thrown).field()).isEqualTo("Resource");
    }

    @Test
    void anUnknownFieldIsRefusedNamingTheStateAndTheField() {
        refuses(task("\"HeartbeatSeconds\": 60"), "S", "HeartbeatSeconds");
        refuses(task("\"Retry\": [{\"ErrorEquals\": [\"E\"], \"MaxAttemps\": 2}]"), "S", "Retry[0].MaxAttemps");
        refuses(
                task("\"Catch\": [{\"ErrorEquals\": [\"E\"], \"Next\": \"S\", \"Output\": 1}]"),
                "S",
                "Catch[0].Output");
        refuses(AslTesting.single("{\"Type\": \"Succeed\", \"ResultPath\": \"$.x\"}"), "S", "ResultPath");
        refuses(AslTesting.single("{\"Type\": \"Fail\", \"InputPath\": \"$\"}"), "S", "InputPath");
        refuses(
                "{\"StartAt\": \"S\", \"Version\": \"1.0\", \"Extra\": 1, \"States\": {\"S\": {\"Type\": \"Succeed\"}}}",
                null,
                "Extra");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "map state          | {\"Type\": \"Map\", \"End\": true}                                           | Type",
                "parallel state     | {\"Type\": \"Parallel\", \"Branches\": [], \"End\": true}                    | Type",
                "unknown type       | {\"Type\": \"Sleep\", \"End\": true}                                          | Type",
                "jsonata            | {\"Type\": \"Pass\", \"QueryLanguage\": \"JSONata\", \"End\": true}           | QueryLanguage",
                "slice path         | {\"Type\": \"Pass\", \"Parameters\": {\"l.$\": \"$.vals[-3:]\"}, \"End\": true} | Parameters",
                "deep scan          | {\"Type\": \"Pass\", \"InputPath\": \"$..x\", \"End\": true}                 | InputPath",
                "wildcard           | {\"Type\": \"Pass\", \"OutputPath\": \"$.a[*]\", \"End\": true}              | OutputPath",
                "filter             | {\"Type\": \"Pass\", \"InputPath\": \"$.a[?(@.x)]\", \"End\": true}          | InputPath",
                "context input path | {\"Type\": \"Pass\", \"InputPath\": \"$$.Execution\", \"End\": true}         | InputPath",
                "index result path  | {\"Type\": \"Pass\", \"ResultPath\": \"$.a[0]\", \"End\": true}              | ResultPath",
                "unknown intrinsic  | {\"Type\": \"Pass\", \"Parameters\": {\"h.$\": \"States.Hash($.a, 'MD5')\"}, \"End\": true} | Parameters",
                "format arity       | {\"Type\": \"Pass\", \"Parameters\": {\"h.$\": \"States.Format('{} {}', $.a)\"}, \"End\": true} | Parameters",
                "not a path         | {\"Type\": \"Pass\", \"Parameters\": {\"h.$\": \"a.b\"}, \"End\": true}      | Parameters",
                "duplicate key      | {\"Type\": \"Pass\", \"Parameters\": {\"a\": 1, \"a.$\": \"$\"}, \"End\": true} | Parameters",
                "open escape        | {\"Type\": \"Pass\", \"Parameters\": {\"h.$\": \"States.Format('\\\\n')\"}, \"End\": true} | Parameters",
                "both next and end  | {\"Type\": \"Pass\", \"Next\": \"S\", \"End\": true}                        | Next",
                "neither            | {\"Type\": \"Pass\"}                                                           | ",
                "end false          | {\"Type\": \"Pass\", \"End\": false}                                          | End",
                "two wait kinds     | {\"Type\": \"Wait\", \"Seconds\": 1, \"Timestamp\": \"2024-01-01T00:00:00Z\", \"End\": true} | Timestamp",
                "negative seconds   | {\"Type\": \"Wait\", \"Seconds\": -1, \"End\": true}                          | Seconds",
                "bad timestamp      | {\"Type\": \"Wait\", \"Timestamp\": \"2024-01-01 00:00:00\", \"End\": true}   | Timestamp",
                "error and path     | {\"Type\": \"Fail\", \"Error\": \"E\", \"ErrorPath\": \"$.e\"}                | ErrorPath",
                "task timeout zero  | {\"Type\": \"Task\", \"Resource\": \"F\", \"TimeoutSeconds\": 0, \"End\": true} | TimeoutSeconds",
                "empty resource     | {\"Type\": \"Task\", \"Resource\": \"\", \"End\": true}                        | Resource",
                "missing resource   | {\"Type\": \"Task\", \"End\": true}                                          | Resource",
            })
    void refusesUnsupportedOrInvalidStates(String name, String state, String field) {
        refuses(AslTesting.single(state), "S", field);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "ALL not alone      | [{\"ErrorEquals\": [\"States.ALL\", \"E\"]}]                              | Retry[0].ErrorEquals",
                "ALL not last       | [{\"ErrorEquals\": [\"States.ALL\"]}, {\"ErrorEquals\": [\"E\"]}]         | Retry[0].ErrorEquals",
                "unknown States.*   | [{\"ErrorEquals\": [\"States.TaskFaild\"]}]                               | Retry[0].ErrorEquals",
                "empty ErrorEquals  | [{\"ErrorEquals\": []}]                                                   | Retry[0].ErrorEquals",
                "backoff below 1    | [{\"ErrorEquals\": [\"E\"], \"BackoffRate\": 0.5}]                         | Retry[0].BackoffRate",
                "negative attempts  | [{\"ErrorEquals\": [\"E\"], \"MaxAttempts\": -1}]                          | Retry[0].MaxAttempts",
                "zero interval      | [{\"ErrorEquals\": [\"E\"], \"IntervalSeconds\": 0}]                       | Retry[0].IntervalSeconds",
                "fractional interval| [{\"ErrorEquals\": [\"E\"], \"IntervalSeconds\": 1.5}]                     | Retry[0].IntervalSeconds",
                "zero max delay     | [{\"ErrorEquals\": [\"E\"], \"MaxDelaySeconds\": 0}]                       | Retry[0].MaxDelaySeconds",
                "bad jitter         | [{\"ErrorEquals\": [\"E\"], \"JitterStrategy\": \"PARTIAL\"}]              | Retry[0].JitterStrategy",
            })
    void refusesInvalidRetriers(String name, String retry, String field) {
        refuses(task("\"Retry\": " + retry), "S", field);
    }

    @Test
    void choiceRulesAreChecked() {
        String rule =
                "{\"StartAt\": \"C\", \"States\": {\"C\": {\"Type\": \"Choice\", \"Choices\": [%s], \"Default\": \"D\"},"
                        + " \"D\": {\"Type\": \"Succeed\"}}}";
        refuses(
                rule.formatted(
                        "{\"Variable\": \"$.t\", \"TimestampEquals\": \"2024-01-01T00:00:00Z\", \"Next\": \"D\"}"),
                "C",
                "Choices[0].TimestampEquals");
        refuses(
                rule.formatted("{\"Variable\": \"$.t\", \"NumericEquals\": \"1\", \"Next\": \"D\"}"),
                "C",
                "Choices[0].NumericEquals");
        refuses(rule.formatted("{\"Variable\": \"$.t\", \"StringEquals\": \"a\"}"), "C", "Choices[0].Next");
        refuses(
                rule.formatted(
                        "{\"Not\": {\"Variable\": \"$.t\", \"IsNull\": true, \"Next\": \"D\"}, \"Next\": \"D\"}"),
                "C",
                "Choices[0].Not.Next");
        refuses(
                rule.formatted("{\"Variable\": \"$.t\", \"IsNull\": true, \"IsString\": true, \"Next\": \"D\"}"),
                "C",
                null);
        refuses(
                rule.formatted("{\"Variable\": \"$.t\", \"StringEquals\": \"a\", \"Next\": \"Nowhere\"}"),
                "C",
                "Choices[0].Next");
    }

    @Test
    void transitionsMustNameExistingStatesAndEveryStateMustBeReachable() {
        refuses("{\"StartAt\": \"Nope\", \"States\": {\"S\": {\"Type\": \"Succeed\"}}}", null, "StartAt");
        refuses(AslTesting.single("{\"Type\": \"Pass\", \"Next\": \"Nope\"}"), "S", "Next");
        refuses(task("\"Catch\": [{\"ErrorEquals\": [\"States.ALL\"], \"Next\": \"Nope\"}]"), "S", "Catch[0].Next");
        refuses(
                "{\"StartAt\": \"A\", \"States\": {\"A\": {\"Type\": \"Succeed\"}, \"B\": {\"Type\": \"Succeed\"}}}",
                "B",
                null);
        refuses("{\"StartAt\": \"A\", \"States\": {\"A\": {\"Type\": \"Pass\", \"Next\": \"A\"}}}", null, "States");
    }

    @Test
    void malformedJsonIsRefused() {
        refuses("{\"StartAt\": ").hasMessageContaining("not valid JSON");
        refuses("{\"StartAt\": \"S\", \"StartAt\": \"S\", \"States\": {\"S\": {\"Type\": \"Succeed\"}}}")
                .hasMessageContaining("StartAt");
    }
}
