package io.trainplane.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Each kind of error gets the right pointer, a plain message and a hint. */
class SpecErrorsTest {
    private static final String EXISTING = "\"cluster\": {\"mode\": \"existing\", \"name\": \"ml-training\"}";

    static Stream<Arguments> oneError() {
        return Stream.of(
                // wrong type
                Arguments.of(
                        "{" + EXISTING + ", \"training\": {\"workers\": \"2\"}}",
                        "/training/workers",
                        "must be an integer, not a string",
                        "remove the quotes: write 2"),
                Arguments.of(
                        "{" + EXISTING + ", \"training\": {\"cpu\": 2}}",
                        "/training/cpu",
                        "must be a string, not an integer",
                        "put the value in quotes: \"2\""),
                Arguments.of(
                        "{" + EXISTING + ", \"training\": {\"batchSize\": 2.5}}",
                        "/training/batchSize",
                        "must be an integer, not a number",
                        "whole number"),
                Arguments.of(
                        "{" + EXISTING + ", \"cleanup\": {\"keepCluster\": \"true\"}}",
                        "/cleanup/keepCluster",
                        "must be a boolean",
                        "write true, not \"true\""),
                Arguments.of(
                        "{\"cluster\": {\"mode\": 5, \"name\": \"c\"}}",
                        "/cluster/mode",
                        "must be a string, not an integer",
                        "put the value in quotes"),
                Arguments.of(
                        "{\"cluster\": \"existing\"}",
                        "/cluster",
                        "must be an object, not a string",
                        "for example {\"mode\":\"existing\""),
                Arguments.of(
                        "{" + EXISTING + ", \"training\": []}",
                        "/training",
                        "must be an object, not an array",
                        "write an object"),
                // out of range
                Arguments.of(
                        "{" + EXISTING + ", \"training\": {\"workers\": 65}}",
                        "/training/workers",
                        "must be at most 64, not 65",
                        "use a whole number from 1 to 64 (the default is 2)"),
                Arguments.of(
                        "{" + EXISTING + ", \"training\": {\"epochs\": 0}}",
                        "/training/epochs",
                        "must be at least 1, not 0",
                        "from 1 to 1000"),
                Arguments.of(
                        "{" + EXISTING + ", \"training\": {\"maxInterruptions\": 21}}",
                        "/training/maxInterruptions",
                        "must be at most 20, not 21",
                        "use a whole number from 0 to 20 (the default is 3)"),
                Arguments.of(
                        "{" + EXISTING + ", \"training\": {\"maxInterruptions\": -1}}",
                        "/training/maxInterruptions",
                        "must be at least 0, not -1",
                        "from 0 to 20"),
                Arguments.of(
                        "{" + EXISTING + ", \"training\": {\"learningRate\": 0}}",
                        "/training/learningRate",
                        "must be greater than 0",
                        "greater than 0 and at most 10"),
                Arguments.of(
                        "{" + EXISTING + ", \"evaluation\": {\"minAccuracy\": 70}}",
                        "/evaluation/minAccuracy",
                        "must be at most 1, not 70",
                        "use a number from 0 to 1"),
                Arguments.of(
                        "{" + EXISTING + ", \"maxRunHours\": 169}",
                        "/maxRunHours",
                        "must be at most 168",
                        "from 1 to 168"),
                // unknown field, with and without a suggestion
                Arguments.of(
                        "{" + EXISTING + ", \"training\": {\"wrkers\": 2}}",
                        "/training/wrkers",
                        "unknown field \"wrkers\"",
                        "did you mean \"workers\"?"),
                Arguments.of(
                        "{" + EXISTING + ", \"maxRunHour\": 2}",
                        "/maxRunHour",
                        "unknown field \"maxRunHour\"",
                        "did you mean \"maxRunHours\"?"),
                Arguments.of(
                        "{" + EXISTING + ", \"owner\": \"me\"}",
                        "/owner",
                        "unknown field \"owner\"",
                        "The top-level fields are runId, cluster, volume"),
                // bad pattern, with the pattern said in words
                Arguments.of(
                        "{\"runId\": \"Nightly_Run\", " + EXISTING + "}",
                        "/runId",
                        "lowercase letters, digits and '-'",
                        "for example \"cifar10-nightly-001\""),
                Arguments.of(
                        "{\"runId\": \"NIGHTLY-1\", " + EXISTING + "}",
                        "/runId",
                        "lowercase letters, digits and '-'",
                        "did you mean \"nightly-1\"?"),
                Arguments.of(
                        "{" + EXISTING + ", \"training\": {\"memory\": \"512m\"}}",
                        "/training/memory",
                        "'m' is not a memory unit",
                        "for example \"4Gi\""),
                Arguments.of(
                        "{" + EXISTING + ", \"training\": {\"image\": \"PyTorch/PyTorch:latest\"}}",
                        "/training/image",
                        "an image reference",
                        "did you mean \"pytorch/pytorch:latest\"?"),
                Arguments.of(
                        "{" + EXISTING + ", \"training\": {\"image\": \"pytorch:\"}}",
                        "/training/image",
                        "an image reference",
                        "for example \"pytorch/pytorch:2.5.1"),
                Arguments.of(
                        "{\"cluster\": {\"mode\": \"existing\", \"name\": \"-bad\"}}",
                        "/cluster/name",
                        "an EKS cluster name",
                        "for example \"ml-training\""),
                // enum
                Arguments.of(
                        "{\"cluster\": {\"mode\": \"Existing\", \"name\": \"c\"}}",
                        "/cluster/mode",
                        "must be one of \"existing\", \"create\", \"warm\", not \"Existing\"",
                        "did you mean \"existing\"?"),
                Arguments.of(
                        "{" + EXISTING + ", \"training\": {\"launcher\": \"horovodrun\"}}",
                        "/training/launcher",
                        "must be one of \"indexed-job\", \"pytorchjob\", \"mpijob\"",
                        "use one of \"indexed-job\", \"pytorchjob\", \"mpijob\""),
                // an MPIJob needs mpirun and sshd in the image, and starts every process itself
                Arguments.of(
                        "{" + EXISTING + ", \"training\": {\"launcher\": \"mpijob\"}}",
                        "/training/launcher",
                        "has no OpenMPI (mpirun) and no SSH server",
                        "set workload.image to an image with PyTorch, OpenMPI and openssh-server"),
                Arguments.of(
                        "{" + EXISTING + ", \"training\": {\"launcher\": \"mpijob\"}, \"workload\": {\"code\":"
                                + " \"image\", \"image\": \"horovod/horovod:0.28.1\", \"launcher\": \"none\","
                                + " \"commands\": {\"train\": {\"args\": [\"python\", \"/app/train.py\"]}}}}",
                        "/workload/launcher",
                        "mpirun starts the train command once per process itself",
                        "remove workload.launcher"),
                // missing required
                Arguments.of(
                        "{}",
                        "/cluster",
                        "is required",
                        "e.g. \"cluster\": {\"mode\":\"existing\",\"name\":\"ml-training\"}"),
                Arguments.of("{\"cluster\": {}}", "/cluster/mode", "is required", "'existing' to use a cluster"),
                // mode-dependent rules
                Arguments.of(
                        "{\"cluster\": {\"mode\": \"existing\"}}",
                        "/cluster/name",
                        "is required when cluster.mode is \"existing\"",
                        "e.g. \"name\": \"ml-training\""),
                Arguments.of(
                        "{" + EXISTING.replace("}", ", \"kubernetesVersion\": \"1.31\"}") + "}",
                        "/cluster/kubernetesVersion",
                        "is not allowed when cluster.mode is \"existing\"",
                        "remove it"),
                Arguments.of(
                        "{" + EXISTING + ", \"volume\": {\"fileSystemId\": \"fs-0123456789abcdef0\"}}",
                        "/volume/fileSystemId",
                        "is not allowed when volume.type is \"none\" (the default)",
                        "remove it"),
                Arguments.of(
                        "{" + EXISTING + ", \"data\": {\"url\": \"https://example.com/data.tgz\"}}",
                        "/data/url",
                        "is not allowed when data.source is \"synthetic\" (the default)",
                        "remove it"));
    }

    @ParameterizedTest(name = "{1}: {2}")
    @MethodSource("oneError")
    void oneErrorIsReportedAtItsPointerWithAHint(String json, String pointer, String message, String hint) {
        List<SpecProblem> problems = RunSpecs.problems(json);

        assertThat(problems).as(problems.toString()).singleElement().satisfies(p -> {
            assertThat(p.pointer()).isEqualTo(pointer);
            assertThat(p.message()).contains(message);
            assertThat(p.hint()).contains(hint);
        });
    }

    @Test
    void everyErrorOfASpecIsReportedAtOnce() {
        String json =
                """
                {
                  "runId": "Bad Id",
                  "cluster": { "mode": "existing" },
                  "training": { "workers": 0, "memory": 4, "launcher": "indexed_job", "epochz": 3 },
                  "evaluation": { "minAccuracy": -1 },
                  "cleanup": { "keepVolume": "no" },
                  "maxRunHours": 0
                }""";

        assertThatThrownBy(() -> RunSpecs.parse(json)).isInstanceOfSatisfying(InvalidSpecException.class, e -> {
            assertThat(e.problems())
                    .extracting(SpecProblem::pointer)
                    .containsExactly(
                            "/cleanup/keepVolume",
                            "/cluster/name",
                            "/evaluation/minAccuracy",
                            "/maxRunHours",
                            "/runId",
                            "/training/epochz",
                            "/training/launcher",
                            "/training/memory",
                            "/training/workers");
            assertThat(e.problems()).allSatisfy(p -> assertThat(p.hint()).isNotBlank());
            assertThat(e.getMessage()).startsWith("invalid run spec (9 problems)\n");
            assertThat(e.getMessage()).contains("\n  /training/workers: must be at least 1, not 0 — hint: ");
            assertThat(e.getMessage().lines()).hasSize(10);
        });
    }

    @Test
    void errorsInsideAFieldThatIsNotAllowedAreNotReported() {
        List<SpecProblem> problems = RunSpecs.problems("{" + EXISTING.replace("}", ", \"nodeGroup\": {}}") + "}");

        assertThat(problems).singleElement().satisfies(p -> {
            assertThat(p.pointer()).isEqualTo("/cluster/nodeGroup");
            assertThat(p.message()).isEqualTo("is not allowed when cluster.mode is \"existing\"");
        });
    }

    @Test
    void controlCharactersAreRefusedEvenWhereAPatternWouldLetThemThrough() {
        List<SpecProblem> problems = RunSpecs.problems("{\"runId\": \"abc\\n\", " + EXISTING + "}");

        assertThat(problems).extracting(SpecProblem::pointer).contains("/runId");
        assertThat(problems).anySatisfy(p -> assertThat(p.message()).contains("control character"));
    }

    @Test
    void notJsonIsOneProblemAtTheRootWithItsPosition() {
        List<SpecProblem> problems = RunSpecs.problems("{\"cluster\": {\"mode\": \"existing\",}}");

        assertThat(problems).singleElement().satisfies(p -> {
            assertThat(p.pointer()).isEmpty();
            assertThat(p.message()).startsWith("is not valid JSON: ").contains("line 1, column ");
            assertThat(p.message()).doesNotContain("Source");
            assertThat(p.hint()).contains("check the quotes, commas and braces near line 1");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"cluster\": 1, \"cluster\": 2}", "{} {}", "{\"cluster\": {}} trailing", "{'a': 1}", "{"})
    void strictJsonProblemsAreReportedAsNotJson(String json) {
        assertThat(RunSpecs.problems(json)).singleElement().satisfies(p -> {
            assertThat(p.pointer()).isEmpty();
            assertThat(p.message()).startsWith("is not valid JSON");
        });
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "   ", "\n"})
    void emptyInputIsOneProblem(String json) {
        assertThat(RunSpecs.problems(json)).singleElement().satisfies(p -> {
            assertThat(p.pointer()).isEmpty();
            assertThat(p.message()).startsWith("is empty");
            assertThat(p.hint()).contains("{\"cluster\": {\"mode\": \"existing\"");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"[]", "[{\"cluster\": {}}]", "\"spec\"", "42", "true", "null"})
    void aDocumentThatIsNotAnObjectIsOneProblem(String json) {
        assertThatThrownBy(() -> RunSpecs.parse(json))
                .isInstanceOfSatisfying(
                        InvalidSpecException.class,
                        e -> assertThat(e.problems()).singleElement().satisfies(p -> {
                            assertThat(p.pointer()).isEmpty();
                            assertThat(p.message()).startsWith("must be a JSON object, not ");
                            assertThat(p.hint()).isNotBlank();
                        }));
    }

    @Test
    void theArrayCaseNamesTheArray() {
        assertThat(RunSpecs.problems("[]").get(0).message()).isEqualTo("must be a JSON object, not an array");
    }

    @Test
    void problemPrintsAsPointerMessageAndHint() {
        assertThat(new SpecProblem("/training/workers", "must be at most 64", "lower it").toString())
                .isEqualTo("/training/workers: must be at most 64 — hint: lower it");
        assertThat(new SpecProblem("", "is empty", "write something").toString())
                .isEqualTo("(spec): is empty — hint: write something");
    }
}
