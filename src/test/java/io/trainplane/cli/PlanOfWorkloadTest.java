package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@code plan} shows of the workload: the image, the code route and the command lines that run. */
class PlanOfWorkloadTest {
    @Test
    void everyBuiltinExamplePlansTheSameWithTheWorkloadSectionSpelledOut(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        List<Path> examples;
        try (var files = Files.list(Path.of("examples"))) {
            examples =
                    files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
        }
        int builtin = 0;
        for (Path example : examples) {
            ObjectNode spec = (ObjectNode) Json.read(Files.readString(example));
            if (spec.has("workload")) {
                continue;
            }
            builtin++;
            spec.putObject("workload").put("code", "builtin").put("launcher", "torchrun");
            Path explicit = dir.resolve(example.getFileName());
            Files.writeString(explicit, spec.toString());
            JsonNode before = Json.read(PlanOutputTest.planAsPrinted(example.toString(), "--output", "json"));
            JsonNode after = Json.read(PlanOutputTest.planAsPrinted(explicit.toString(), "--output", "json"));
            assertThat(after).as(example.toString()).isEqualTo(before);
        }
        assertThat(builtin).isGreaterThanOrEqualTo(6);
    }

    @Test
    void theCustomImageExampleShowsItsImageCodeRouteAndTheCommandLinesThatRun() {
        String text = PlanOutputTest.planAsPrinted("examples/custom-image.json");
        assertThat(text)
                .contains(
                        "# Workload: code image (the image's own commands, launcher torchrun), image"
                                + " 000000000000.dkr.ecr.us-east-1.amazonaws.com/my-training:1.0, hyperparameters as --key value and"
                                + " TRAINPLANE_HP_*",
                        "command: torchrun --nnodes=2 --nproc-per-node=1 --max-restarts=3 --rdzv-backend=c10d"
                                + " --rdzv-endpoint=tp-custom-image-train-0.tp-custom-image-workers:29400"
                                + " --rdzv-id=custom-image --no-python python /app/train.py --data-dir /shared/data"
                                + " --output-dir /shared/model --epochs 3 --lr 0.001 --optimizer adamw",
                        "command: python /app/evaluate.py --model-dir /shared/model --metrics-file /dev/termination-log",
                        "assumes training: 3 epochs");
        assertThat(PlanOutputTest.planAsPrinted("examples/quickstart.json"))
                .contains("# Workload: code builtin (the CIFAR-10 scripts of the jar");
    }

    @Test
    void anArgumentWithSpacesOrShellCharactersIsShownQuoted() {
        var container = Json.object().put("name", "trainer").put("image", "x");
        container.putArray("command").add("sh").add("-c").add("python t.py && echo 'ok'");
        var job = Json.object().put("kind", "Job");
        job.putObject("metadata").put("name", "j");
        job.putObject("spec")
                .putObject("template")
                .putObject("spec")
                .putArray("containers")
                .add(container);
        var summary =
                ManifestSummary.of(Json.mapper().convertValue(job, io.fabric8.kubernetes.api.model.batch.v1.Job.class));
        assertThat(summary).contains("      command: sh -c 'python t.py && echo '\\''ok'\\'''");
    }

    @Test
    void theProcessRuntimeRefusesYourImagesCommandsBeforeCreatingAnything() {
        var err = new java.io.StringWriter();
        int exit = Main.commandLine()
                .setOut(new java.io.PrintWriter(new java.io.StringWriter(), true))
                .setErr(new java.io.PrintWriter(err, true))
                .execute("run", "examples/custom-image.json", "--runtime", "process", "--no-store");
        assertThat(exit).isEqualTo(Main.INVALID_INPUT);
        assertThat(err.toString())
                .contains("the code is inside the image", "--runtime simulated", "[\"python\", \"train.py\"]");
    }
}
