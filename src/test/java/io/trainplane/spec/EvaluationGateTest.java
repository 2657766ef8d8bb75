package io.trainplane.spec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The quality gate on any metric: its forms in a spec, what is refused, and what passes. */
class EvaluationGateTest {
    private static final String EXISTING = "\"cluster\": {\"mode\": \"existing\", \"name\": \"ml-training\"}";

    private static String withEvaluation(String evaluation) {
        return "{" + EXISTING + ", \"evaluation\": " + evaluation + "}";
    }

    @Test
    void theShorthandIsAGateOnAccuracyAndNormalizesToTheMetricForm() {
        RunSpec spec = RunSpecs.parse(withEvaluation("{\"minAccuracy\": 0.6}"));

        assertThat(spec.evaluation()).isEqualTo(new EvaluationSpec("accuracy", 0.6, null));
        assertThat(spec.toJson().path("evaluation")).isEqualTo(Json.read("{\"metric\": \"accuracy\", \"min\": 0.6}"));
        assertThat(RunSpecs.parse(withEvaluation("{\"metric\": \"accuracy\", \"min\": 0.6}")))
                .as("both forms are the same run")
                .isEqualTo(spec);
        assertThat(RunSpecs.parse(withEvaluation("{\"minAccuracy\": 0}"))
                        .evaluation()
                        .gated())
                .as("0 was and stays no gate")
                .isFalse();
        assertThat(RunSpecs.parse("{" + EXISTING + "}").evaluation())
                .isEqualTo(new EvaluationSpec("accuracy", null, null));
        EvaluationSpec reportedOnly =
                RunSpecs.parse(withEvaluation("{\"metric\": \"perplexity\"}")).evaluation();
        assertThat(reportedOnly.gated())
                .as("a metric without a bound is reported, not gated")
                .isFalse();
        assertThat(reportedOnly.passes(1e9)).isTrue();
    }

    @Test
    void aSpecNormalizedBeforeTheMetricFormIsReadAsItsGate() {
        // What a run record of an earlier version holds.
        ObjectNode old = RunSpecs.normalize("{" + EXISTING + "}");
        old.putObject("evaluation").put("minAccuracy", 0.7);

        assertThat(RunSpecs.fromNormalized(old).evaluation()).isEqualTo(new EvaluationSpec("accuracy", 0.7, null));
    }

    @Test
    void aGateOnAnotherMetricWithAMaximum() {
        RunSpec spec = RunSpecs.parse(withEvaluation("{\"metric\": \"perplexity\", \"max\": 4}"));
        EvaluationSpec gate = spec.evaluation();

        assertThat(gate).isEqualTo(new EvaluationSpec("perplexity", null, 4.0));
        assertThat(RunSpecs.fromNormalized(spec.toJson()).evaluation()).isEqualTo(gate);
        assertThat(gate.describe()).isEqualTo("perplexity ≤ 4");
        assertThat(gate.passes(3.99)).isTrue();
        assertThat(gate.passes(4.0)).as("the bound itself passes").isTrue();
        assertThat(gate.passes(4.01)).isFalse();
        assertThat(gate.passes(Double.NaN)).isFalse();
        assertThat(gate.failure(5.25)).isEqualTo("perplexity 5.25 is above evaluation.max 4");
        assertThat(gate.failure(3.5)).isEmpty();
    }

    @Test
    void aRangeAndTheMinimumsMessage() {
        EvaluationSpec range = RunSpecs.parse(withEvaluation("{\"metric\": \"loss\", \"min\": 0.1, \"max\": 0.5}"))
                .evaluation();
        assertThat(range.describe()).isEqualTo("loss ≥ 0.1 and ≤ 0.5");
        assertThat(range.passes(0.05)).isFalse();
        assertThat(range.passes(0.3)).isTrue();
        assertThat(range.failure(0.05)).isEqualTo("loss 0.05 is below evaluation.min 0.1");
        assertThat(range.failure(0.75)).isEqualTo("loss 0.75 is above evaluation.max 0.5");
        assertThat(EvaluationSpec.minAccuracy(0.6).failure(0.52))
                .isEqualTo("accuracy 0.52 is below evaluation.min 0.6 (evaluation.minAccuracy)");
        assertThat(new EvaluationSpec("accuracy.cat", 0.5, null).describe()).isEqualTo("accuracy.cat ≥ 0.5");
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of(
                        "{\"minAccuracy\": 0.6, \"metric\": \"accuracy\", \"min\": 0.7}",
                        "/evaluation/minAccuracy",
                        "also gives evaluation.metric",
                        "remove minAccuracy (and write {\"metric\": \"accuracy\", \"min\": 0.6})"),
                Arguments.of(
                        "{\"minAccuracy\": 0.6, \"max\": 0.9}",
                        "/evaluation/minAccuracy",
                        "also gives evaluation.max",
                        "give one form"),
                Arguments.of(
                        "{\"metric\": \"loss\", \"min\": 0.5, \"max\": 0.1}",
                        "/evaluation/max",
                        "below evaluation.min 0.5: no value of loss could pass",
                        "set evaluation.min at most evaluation.max"),
                Arguments.of("{\"metric\": \"val loss\", \"max\": 1}", "/evaluation/metric", "identifier", ""),
                Arguments.of("{\"metric\": \"2nd\", \"max\": 1}", "/evaluation/metric", "identifier", ""),
                Arguments.of("{\"metric\": \"perplexity\", \"max\": \"4\"}", "/evaluation/max", "must be a number", ""),
                Arguments.of("{\"minAccuracy\": 60}", "/evaluation/minAccuracy", "at most 1", ""),
                Arguments.of("{\"threshold\": 0.6}", "/evaluation/threshold", "", ""));
    }

    @ParameterizedTest
    @MethodSource("refused")
    void badGatesAreRefusedNamingTheField(String evaluation, String pointer, String message, String hint) {
        List<SpecProblem> problems = RunSpecs.problems(withEvaluation(evaluation));

        assertThat(problems).as(problems.toString()).hasSize(1);
        SpecProblem problem = problems.getFirst();
        assertThat(problem.pointer()).isEqualTo(pointer);
        assertThat(problem.message() + " " + problem.hint()).contains(message);
        assertThat(problem.hint()).contains(hint);
    }
}
