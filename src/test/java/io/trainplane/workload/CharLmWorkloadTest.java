package io.trainplane.workload;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trainplane.local.process.PythonRuntime;
import io.trainplane.spec.EvaluationSpec;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The second example workload for real: examples/char-lm as a user would ship it, run with PyTorch on
 * the CPU the way the pods run it — the directories from {@code TRAINPLANE_DATA_DIR} and
 * {@code TRAINPLANE_OUTPUT_DIR}, hyperparameters as {@code --key value}, training under torchrun with
 * two processes (gloo) — then a resume from its verified checkpoint, and an evaluation whose
 * perplexity must pass the gate recommended for it, far below the uniform and unigram baselines.
 * Skips, saying why, without Python or the PyTorch wheel.
 */
class CharLmWorkloadTest {
    private static final Path EXAMPLE = Path.of("examples", "char-lm").toAbsolutePath();
    private static final Pattern PROGRESS = Pattern.compile("(?m)^epoch (\\d+)/(\\d+) loss (\\d+\\.\\d+)$");
    /** The gate examples/char-lm's run spec should carry: the generated corpus's unigram perplexity is about 18. */
    static final String GATE = "{\"metric\": \"perplexity\", \"max\": 3}";

    @TempDir
    Path work;

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void preparesTrainsResumesAndPassesItsGate() throws Exception {
        PythonRuntime python = TorchEnvironment.python();
        Path data = work.resolve("shared/data");
        Path model = work.resolve("shared/model");
        Map<String, String> env = Map.of(
                "TRAINPLANE_DATA_DIR", data.toString(),
                "TRAINPLANE_OUTPUT_DIR", model.toString());

        // Data: generated, the same bytes every time; a rerun sees the marker.
        String prepared = run(List.of(python.python().toString(), script("prepare.py")), env);
        assertThat(prepared).containsPattern("data ready in .*: 200\\d{3} characters, \\d+ distinct");
        String corpus = Files.readString(data.resolve("corpus/train.txt"));
        assertThat(corpus).startsWith(generatedStart());
        assertThat(Files.size(data.resolve("corpus/val.txt"))).isGreaterThan(15_000);
        assertThat(run(List.of(python.python().toString(), script("prepare.py")), env))
                .contains("skipping");

        // Training: torchrun, two processes, hyperparameters as the spec's train command appends them.
        String trained = run(train(python, "--epochs", "4", "--batch_size", "32", "--amp", "false"), env);
        List<Double> losses = losses(trained, 4);
        assertThat(losses.getLast()).as(trained).isLessThan(losses.getFirst() * 0.6);
        assertThat(trained).contains("starting fresh: no verified checkpoint (resumedFromEpoch=0)");
        for (int epoch = 1; epoch <= 4; epoch++) {
            assertVerified(model.resolve("checkpoint-epoch-" + epoch + ".pt"));
        }
        assertThat(model.resolve("model.pt")).exists();
        JsonNode training = read(model.resolve("train-metrics.json"));
        assertThat(training.path("worldSize").asInt()).isEqualTo(2);
        assertThat(training.path("epochs").asInt()).isEqualTo(4);
        JsonNode written = read(model.resolve("metrics.json"));
        assertThat(written.path("perplexity").asDouble())
                .as("metrics.json, what the evaluation Job reports without an evaluate command: %s", written)
                .isLessThan(written.path("uniformPerplexity").asDouble() / 4);

        // One more epoch: resumes from the fourth epoch's verified checkpoint, trains only the fifth.
        String resumed = run(train(python, "--epochs", "5", "--amp", "false"), env);
        assertThat(resumed)
                .contains("resuming from checkpoint-epoch-4.pt at epoch 5 (resumedFromEpoch=4, SHA-256 verified)");
        assertThat(PROGRESS.matcher(resumed).results().map(m -> m.group(1)).toList())
                .containsExactly("5");
        assertThat(read(model.resolve("train-metrics.json")).path("restarts").asInt())
                .isEqualTo(1);

        // Evaluation: the termination message and the METRICS line agree, and the gate passes.
        Path termination = work.resolve("termination-log");
        String evaluated = run(
                List.of(python.python().toString(), script("evaluate.py"), "--metrics-file", termination.toString()),
                env);
        JsonNode metrics = new ObjectMapper().readTree(Files.readString(termination));
        Matcher line = Pattern.compile("(?m)^METRICS (\\{.*\\})$").matcher(evaluated);
        assertThat(line.find()).as(evaluated).isTrue();
        assertThat(new ObjectMapper().readTree(line.group(1))).isEqualTo(metrics);
        assertThat(Files.size(termination)).as("fits a termination message").isLessThan(4096);
        double perplexity = metrics.path("perplexity").asDouble();
        assertThat(perplexity).as(metrics.toString()).isGreaterThanOrEqualTo(1.0);
        assertThat(metrics.path("accuracy").asDouble()).as(metrics.toString()).isGreaterThan(0.6);
        assertThat(metrics.path("bitsPerChar").asDouble())
                .isCloseTo(Math.log(perplexity) / Math.log(2), org.assertj.core.data.Offset.offset(0.01));
        assertThat(metrics.path("restarts").asInt()).isEqualTo(1);
        assertThat(metrics.path("resumedFromEpoch").asInt()).isEqualTo(4);
        EvaluationSpec gate = RunSpecs.parse(
                        "{\"cluster\": {\"mode\": \"existing\", \"name\": \"ml\"}, \"evaluation\": " + GATE + "}")
                .evaluation();
        assertThat(gate.passes(perplexity)).as(gate.failure(perplexity)).isTrue();
        System.out.printf("char-lm workload test: losses %s, metrics %s%n", losses, metrics);
    }

    /** The first sentence the generator writes with its fixed seed: the corpus does not change between runs. */
    private String generatedStart() throws IOException, InterruptedException {
        Path again = work.resolve("again");
        run(
                List.of(
                        TorchEnvironment.python().python().toString(),
                        script("prepare.py"),
                        "--data-dir",
                        again.toString()),
                Map.of());
        String text = Files.readString(again.resolve("corpus/train.txt"));
        return text.substring(0, text.indexOf('.') + 1);
    }

    private static String script(String name) {
        return EXAMPLE.resolve(name).toString();
    }

    private static List<String> train(PythonRuntime python, String... hyperparameters) {
        List<String> command = new ArrayList<>(python.torchrun());
        command.addAll(List.of("--standalone", "--nnodes=1", "--nproc-per-node=2", script("train.py")));
        command.addAll(List.of(hyperparameters));
        return command;
    }

    private static List<Double> losses(String log, int epochs) {
        List<Double> losses = new ArrayList<>();
        Matcher m = PROGRESS.matcher(log);
        while (m.find()) {
            assertThat(Integer.parseInt(m.group(2))).isEqualTo(epochs);
            losses.add(Double.parseDouble(m.group(3)));
        }
        assertThat(losses).as(log).hasSize(epochs);
        return losses;
    }

    private static JsonNode read(Path file) throws IOException {
        return new ObjectMapper().readTree(file.toFile());
    }

    private static void assertVerified(Path checkpoint) throws Exception {
        assertThat(checkpoint).exists();
        String expected =
                HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(checkpoint)));
        assertThat(Files.readString(checkpoint.resolveSibling(checkpoint.getFileName() + ".sha256")))
                .isEqualTo(expected + "  " + checkpoint.getFileName() + "\n");
    }

    private String run(List<String> command, Map<String, String> env) throws IOException, InterruptedException {
        Path log = Files.createTempFile(work, "process", ".log");
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("PYTHONUNBUFFERED", "1");
        builder.environment().putAll(env);
        Process process = builder.start();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError("timed out: " + command + "\n" + Files.readString(log));
        }
        String output = Files.readString(log);
        assertThat(process.exitValue()).as(command + "\n" + output).isZero();
        return output;
    }
}
