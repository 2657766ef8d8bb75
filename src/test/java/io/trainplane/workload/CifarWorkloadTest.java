package io.trainplane.workload;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trainplane.kubernetes.WorkloadScripts;
import io.trainplane.local.process.PythonRuntime;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default workload for real: the scripts shipped in the jar, run with PyTorch on the CPU —
 * synthetic data, DDP training with two processes under torchrun (gloo), a training killed after
 * its second checkpoint and restarted (it must resume, not start over), and an evaluation whose
 * accuracy must be far above chance. Skips, saying why, without Python or the PyTorch wheel.
 */
class CifarWorkloadTest {
    private static final Pattern LOSS = Pattern.compile("(?m)^epoch (\\d+)/(\\d+) loss (\\d+\\.\\d+)$");
    private static final List<String> SMALL = List.of("--batch-size", "32", "--lr", "0.01");

    @TempDir
    Path work;

    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void preparesTrainsResumesAndEvaluates() throws Exception {
        PythonRuntime python = TorchEnvironment.python();
        Path scripts = Files.createDirectories(work.resolve("workload"));
        for (Map.Entry<String, String> script : WorkloadScripts.all().entrySet()) {
            Files.writeString(scripts.resolve(script.getKey()), script.getValue());
        }
        Path data = work.resolve("shared/data");

        // Data: synthetic, CIFAR-format; a second run sees the marker and does nothing.
        String prepared = run(
                        python,
                        List.of(
                                python.python().toString(),
                                scripts.resolve("prepare.py").toString(),
                                "--data-dir",
                                data.toString(),
                                "--source",
                                "synthetic",
                                "--samples",
                                "2000"),
                        Duration.ofMinutes(1))
                .log;
        assertThat(prepared).contains("data ready");
        assertThat(data.resolve("cifar-10-batches-py/data_batch_5")).exists();
        assertThat(data.resolve("cifar-10-batches-py/test_batch")).exists();
        assertThat(run(
                                python,
                                List.of(
                                        python.python().toString(),
                                        scripts.resolve("prepare.py").toString(),
                                        "--data-dir",
                                        data.toString(),
                                        "--source",
                                        "synthetic"),
                                Duration.ofMinutes(1))
                        .log)
                .contains("skipping");

        // Training, two epochs, two processes.
        Path first = work.resolve("shared/model-a");
        Result trained = run(python, train(python, scripts, data, first, 2), Duration.ofMinutes(2));
        List<double[]> losses = losses(trained.log);
        assertThat(losses).as(trained.log).hasSize(2);
        assertThat(losses.get(1)[2]).as("the loss falls").isLessThan(losses.get(0)[2]);
        assertThat(first.resolve("checkpoint-epoch-1.pt")).exists();
        assertThat(first.resolve("checkpoint-epoch-2.pt")).exists();
        assertThat(first.resolve("model.pt")).exists();
        JsonNode trainMetrics =
                new ObjectMapper().readTree(first.resolve("train-metrics.json").toFile());
        assertThat(trainMetrics.path("epochs").asInt()).isEqualTo(2);
        assertThat(trainMetrics.path("worldSize").asInt()).isEqualTo(2);
        assertThat(trainMetrics.path("loss").asDouble())
                .isEqualTo(losses.get(1)[2], org.assertj.core.data.Offset.offset(1e-3));

        // A training of four epochs killed once its second checkpoint exists, then restarted.
        Path second = work.resolve("shared/model-b");
        Path killedLog = work.resolve("killed.log");
        Process killed = start(python, train(python, scripts, data, second, 4), killedLog);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (!Files.exists(second.resolve("checkpoint-epoch-2.pt"))
                && killed.isAlive()
                && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(second.resolve("checkpoint-epoch-2.pt"))
                .as(Files.readString(killedLog))
                .exists();
        destroyTree(killed);
        assertThat(second.resolve("model.pt")).as("killed before the end").doesNotExist();
        Result resumed = run(python, train(python, scripts, data, second, 4), Duration.ofMinutes(2));
        assertThat(resumed.log).containsPattern("resuming from checkpoint-epoch-[23]\\.pt at epoch [34]");
        List<double[]> resumedLosses = losses(resumed.log);
        assertThat(resumedLosses).as(resumed.log).isNotEmpty();
        assertThat(resumedLosses.getFirst()[0])
                .as("no epoch trained twice from scratch")
                .isGreaterThanOrEqualTo(3);
        assertThat(resumedLosses.getLast()[0]).isEqualTo(4);
        assertThat(second.resolve("model.pt")).exists();

        // Evaluation of the four-epoch model: metrics in the termination message and the log.
        Path termination = work.resolve("termination-log");
        Result evaluated = run(
                python,
                List.of(
                        python.python().toString(),
                        scripts.resolve("evaluate.py").toString(),
                        "--data-dir",
                        data.toString(),
                        "--model-dir",
                        second.toString(),
                        "--metrics-file",
                        termination.toString()),
                Duration.ofMinutes(1));
        JsonNode metrics = new ObjectMapper().readTree(Files.readString(termination));
        Matcher line = Pattern.compile("(?m)^METRICS (\\{.*\\})$").matcher(evaluated.log);
        assertThat(line.find()).as(evaluated.log).isTrue();
        assertThat(new ObjectMapper().readTree(line.group(1))).isEqualTo(metrics);
        assertThat(metrics.path("accuracy").asDouble())
                .as(metrics.toString())
                .isGreaterThan(0.3)
                .isLessThanOrEqualTo(1.0);
        assertThat(metrics.path("samples").asInt()).isEqualTo(400);
        assertThat(metrics.has("accuracy.airplane")).isTrue();
        assertThat(Files.size(termination)).as("fits a termination message").isLessThan(4096);
        System.out.printf(
                "workload test: losses %s, resumed %s, metrics %s%n",
                losses.stream().map(l -> l[2]).toList(),
                resumedLosses.stream().map(l -> l[2]).toList(),
                metrics);
    }

    private static List<String> train(PythonRuntime python, Path scripts, Path data, Path output, int epochs) {
        List<String> command = new ArrayList<>(python.torchrun());
        command.addAll(List.of(
                "--standalone",
                "--nnodes=1",
                "--nproc-per-node=2",
                scripts.resolve("train.py").toString(),
                "--data-dir",
                data.toString(),
                "--output-dir",
                output.toString(),
                "--epochs",
                Integer.toString(epochs)));
        command.addAll(SMALL);
        return command;
    }

    private static List<double[]> losses(String log) {
        List<double[]> losses = new ArrayList<>();
        Matcher m = LOSS.matcher(log);
        while (m.find()) {
            losses.add(new double[] {
                Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Double.parseDouble(m.group(3))
            });
        }
        return losses;
    }

    private record Result(int exitCode, String log) {}

    private Result run(PythonRuntime python, List<String> command, Duration timeout)
            throws IOException, InterruptedException {
        Path log = Files.createTempFile(work, "process", ".log");
        Process process = start(python, command, log);
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            destroyTree(process);
            throw new AssertionError("timed out after " + timeout + ": " + command + "\n" + Files.readString(log));
        }
        String output = Files.readString(log);
        assertThat(process.exitValue()).as(command + "\n" + output).isZero();
        return new Result(process.exitValue(), output);
    }

    private static Process start(PythonRuntime python, List<String> command, Path log) throws IOException {
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("PYTHONUNBUFFERED", "1");
        return builder.start();
    }

    /** Kills torchrun and its workers at once, as a node going away would. */
    private static void destroyTree(Process process) throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }
}
