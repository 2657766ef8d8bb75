package io.trainplane.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The workload section: defaults, normalization, and each refusal with its pointer and hint. */
class WorkloadSpecTest {
    private static final String EXISTING = "\"cluster\": {\"mode\": \"existing\", \"name\": \"ml-training\"}";
    private static final String TRAIN = "\"commands\": {\"train\": {\"args\": [\"python\", \"/app/train.py\"]}}";

    private static String withWorkload(String workload) {
        return "{" + EXISTING + ", \"workload\": " + workload + "}";
    }

    @Test
    void withoutTheSectionTheBuiltinScriptsRunAndTheNormalizedSpecHasNoWorkload() {
        RunSpec spec = RunSpecs.parse("{" + EXISTING + "}");
        assertThat(spec.workload()).isEqualTo(WorkloadSpec.BUILTIN);
        assertThat(spec.toJson().has("workload")).isFalse();
        // Saying so changes nothing: the same normalized spec, so the same hash and manifests.
        assertThat(RunSpecs.normalize(withWorkload("{\"code\": \"builtin\", \"launcher\": \"torchrun\"}")))
                .isEqualTo(spec.toJson());
    }

    @Test
    void yourImagesWorkloadIsNormalizedAndReadBackEqual() {
        RunSpec spec = RunSpecs.parse(withWorkload("{\"image\": \"ghcr.io/me/trainer:1.2\", \"code\": \"image\","
                + " \"launcher\": \"none\", \"commands\": {\"train\": {\"args\": [\"python\", \"t.py\"],"
                + " \"env\": {\"NCCL_DEBUG\": \"WARN\"}}}, \"hyperparameters\": {\"epochs\": 3, \"lr\": 1e-4,"
                + " \"opt\": \"adamw\", \"amp\": true}}"));
        WorkloadSpec workload = spec.workload();
        assertThat(workload.code()).isEqualTo(WorkloadCode.IMAGE);
        assertThat(workload.launcher()).isEqualTo(TrainLauncher.NONE);
        assertThat(workload.train().env()).containsEntry("NCCL_DEBUG", "WARN");
        assertThat(workload.hyperparameterArguments())
                .containsExactly("--epochs", "3", "--lr", "0.0001", "--opt", "adamw", "--amp", "true");
        assertThat(workload.hyperparameterEnv())
                .containsExactly(
                        Map.entry("TRAINPLANE_HP_EPOCHS", "3"),
                        Map.entry("TRAINPLANE_HP_LR", "0.0001"),
                        Map.entry("TRAINPLANE_HP_OPT", "adamw"),
                        Map.entry("TRAINPLANE_HP_AMP", "true"));
        // workload.image is the image the pods run: training.image says the same in the normalized spec.
        assertThat(spec.training().image()).isEqualTo("ghcr.io/me/trainer:1.2");
        assertThat(spec.toJson().at("/training/image").asText()).isEqualTo("ghcr.io/me/trainer:1.2");
        assertThat(spec.toJson().at("/workload/image").asText()).isEqualTo("ghcr.io/me/trainer:1.2");
        assertThat(RunSpecs.parse(spec.toJson())).isEqualTo(spec);
        assertThat(RunSpecs.fromNormalized(spec.toJson())).isEqualTo(spec);
        assertThat(workload.epochs(10)).isEqualTo(3);
    }

    @Test
    void trainingImageStillNamesTheImageOfTheBuiltinScripts() {
        RunSpec spec = RunSpecs.parse("{" + EXISTING + ", \"training\": {\"image\": \"my/torch:2\"}}");
        assertThat(spec.training().image()).isEqualTo("my/torch:2");
        assertThat(spec.workload()).isEqualTo(WorkloadSpec.BUILTIN);
    }

    @Test
    void anArgumentListWithShellCodeAfterDashCIsAnExplicitShellAndAllowed() {
        assertThat(RunSpecs.problems(withWorkload("{\"code\": \"image\", \"commands\": {\"train\": {\"args\":"
                        + " [\"sh\", \"-c\", \"python /app/train.py && echo done | tee /tmp/x\"]}}}")))
                .isEmpty();
        assertThat(RunSpecs.problems(withWorkload("{\"code\": \"image\", \"commands\": {\"train\": {\"args\":"
                        + " [\"python\", \"/app/train.py\", \"--pattern\", \"a|b\", \"--name=x;y\"]}}}")))
                .isEmpty();
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of(
                        withWorkload("{\"image\": \"Ubuntu Latest\"}"),
                        "/workload/image",
                        "[registry/]repository[:tag][@sha256:digest]"),
                Arguments.of(
                        withWorkload("{\"image\": \"ghcr.io/me/t@sha256:abc\"}"),
                        "/workload/image",
                        "[registry/]repository[:tag][@sha256:digest]"),
                Arguments.of(
                        "{" + EXISTING
                                + ", \"training\": {\"image\": \"a/b:1\"}, \"workload\": {\"image\": \"a/b:2\"}}",
                        "/workload/image",
                        "remove training.image"),
                Arguments.of(
                        withWorkload(
                                "{\"code\": \"s3://Bad_Bucket/code/\", \"commands\": {\"train\": {\"args\": [\"python\","
                                        + " \"train.py\"]}}}"),
                        "/workload/code",
                        "s3://my-bucket/code/trainer/"),
                Arguments.of(
                        withWorkload("{\"code\": \"./src\"}"),
                        "/workload/commands/train",
                        "[\"python\", \"train.py\"]"),
                Arguments.of(withWorkload("{\"code\": \"image\"}"), "/workload/commands/train", "\"args\":"),
                Arguments.of(
                        withWorkload("{\"code\": \"image\", \"commands\": {\"train\": {\"args\":"
                                + " [\"python\", \"train.py; rm -rf /tmp/x\"]}}}"),
                        "/workload/commands/train/args/1",
                        "[\"sh\", \"-c\""),
                Arguments.of(
                        withWorkload("{\"code\": \"image\", \"commands\": {\"train\": {\"args\":"
                                + " [\"python\", \"train.py\", \"--when\", \"$(date)\"]}}}"),
                        "/workload/commands/train/args/3",
                        "split it into list elements"),
                Arguments.of(
                        withWorkload("{\"code\": \"image\", \"commands\": {\"train\": {\"args\":"
                                + " [\"python /app/train.py && echo ok\"]}}}"),
                        "/workload/commands/train/args/0",
                        "[\"python\", \"/app/train.py\", \"&&\", \"echo\", \"ok\"]"),
                Arguments.of(
                        withWorkload("{\"code\": \"image\", \"commands\": {\"train\": {\"args\": [\"python\","
                                + " \"t.py\"], \"env\": {\"NCCL-DEBUG\": \"1\"}}}}"),
                        "/workload/commands/train/env/NCCL-DEBUG",
                        "\"NCCL_DEBUG\""),
                Arguments.of(
                        withWorkload("{\"code\": \"image\", \"commands\": {\"evaluate\": {\"args\": [\"python\","
                                + " \"e.py\"], \"env\": {\"TRAINPLANE_RUN_ID\": \"x\"}}}, \"hyperparameters\": {}}"),
                        "/workload/commands/evaluate/env/TRAINPLANE_RUN_ID",
                        "choose another name"),
                Arguments.of(
                        withWorkload("{\"code\": \"image\", " + TRAIN + ", \"hyperparameters\": {\"batch-size\": 64}}"),
                        "/workload/hyperparameters/batch-size",
                        "\"batch_size\""),
                Arguments.of(
                        withWorkload("{\"code\": \"image\", " + TRAIN + ", \"hyperparameters\": {\"2x\": 1}}"),
                        "/workload/hyperparameters/2x",
                        "\"_2x\""),
                Arguments.of(
                        withWorkload(
                                "{\"code\": \"image\", " + TRAIN + ", \"hyperparameters\": {\"lr\": 1, \"LR\": 2}}"),
                        "/workload/hyperparameters/LR",
                        "keep one of them"),
                Arguments.of(
                        withWorkload("{\"code\": \"image\", " + TRAIN + ", \"hyperparameters\": {\"layers\": [1, 2]}}"),
                        "/workload/hyperparameters/layers",
                        ""),
                Arguments.of(
                        withWorkload("{\"hyperparameters\": {\"epochs\": 3}}"),
                        "/workload/hyperparameters",
                        "set workload.code to \"image\""),
                Arguments.of(withWorkload("{" + TRAIN + "}"), "/workload/commands", "set workload.code to \"image\""),
                Arguments.of(
                        withWorkload("{\"launcher\": \"none\"}"), "/workload/launcher", "remove workload.launcher"),
                Arguments.of(
                        "{" + EXISTING + ", \"training\": {\"epochs\": 5}, \"workload\": {\"code\": \"image\", " + TRAIN
                                + "}}",
                        "/training/epochs",
                        "\"hyperparameters\": {\"epochs\": 5}"));
    }

    @ParameterizedTest
    @MethodSource("refused")
    void isRefusedWithThePointerAndAHint(String json, String pointer, String hint) {
        List<SpecProblem> problems = RunSpecs.problems(json);
        assertThat(problems).as(json).isNotEmpty();
        if (pointer.isEmpty()) {
            return;
        }
        assertThat(problems).as(json).anySatisfy(p -> {
            assertThat(p.pointer()).isEqualTo(pointer);
            assertThat(p.toString()).contains(hint);
        });
    }
}
