package io.trainplane.workload;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trainplane.kubernetes.WorkloadScripts;
import io.trainplane.local.process.PythonRuntime;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default workload for real: the scripts shipped in the jar, run with PyTorch on the CPU —
 * synthetic data, DDP training with two processes under torchrun (gloo), a training killed after
 * its second checkpoint and restarted (it must resume, not start over), a training stopped by
 * SIGTERM (a spot interruption's notice) that leaves a durable checkpoint to resume from and ends as
 * accurate as the uninterrupted run, a resume that skips a corrupt and an undigested checkpoint, and
 * an evaluation whose accuracy must be far above chance. Skips, saying why, without Python or the
 * PyTorch wheel.
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

        // Training, three epochs, two processes: every checkpoint has its SHA-256 beside it.
        Path first = work.resolve("shared/model-a");
        Result trained = run(python, train(python, scripts, data, first, 3), Duration.ofMinutes(2));
        List<double[]> losses = losses(trained.log);
        assertThat(losses).as(trained.log).hasSize(3);
        assertThat(losses.get(2)[2]).as("the loss falls").isLessThan(losses.get(0)[2]);
        assertThat(trained.log).contains("starting fresh: no verified checkpoint (resumedFromEpoch=0)");
        for (int epoch = 1; epoch <= 3; epoch++) {
            assertVerified(first.resolve("checkpoint-epoch-" + epoch + ".pt"));
        }
        assertThat(first.resolve("model.pt")).exists();
        try (Stream<Path> files = Files.list(first)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .as("no temporary file left")
                    .noneMatch(f -> f.endsWith(".tmp"));
        }
        JsonNode trainMetrics = trainMetrics(first);
        assertThat(trainMetrics.path("epochs").asInt()).isEqualTo(3);
        assertThat(trainMetrics.path("worldSize").asInt()).isEqualTo(2);
        assertThat(trainMetrics.path("loss").asDouble()).isEqualTo(losses.get(2)[2], Offset.offset(1e-3));
        assertThat(trainMetrics.path("resumedFromEpoch").asInt()).isZero();
        assertThat(trainMetrics.path("restarts").asInt()).isZero();
        double uninterrupted =
                evaluate(python, scripts, data, first).path("accuracy").asDouble();

        // The same training told to stop by SIGTERM during its second or third epoch, as the kubelet
        // does on a spot interruption: torchrun passes the signal on, the ranks finish their step,
        // rank 0 writes a checkpoint of it, and the run exits non-zero. A rerun resumes from that
        // checkpoint and, the same seed and the same batches, ends as accurate as the uninterrupted run.
        Path stopped = work.resolve("shared/model-c");
        Path stoppedLog = work.resolve("stopped.log");
        Process interrupted = start(python, train(python, scripts, data, stopped, 3), stoppedLog);
        awaitFile(stopped.resolve("checkpoint-epoch-1.pt.sha256"), interrupted, stoppedLog);
        Thread.sleep(300);
        interrupted.destroy(); // SIGTERM
        assertThat(interrupted.waitFor(1, TimeUnit.MINUTES)).isTrue();
        String stoppedOutput = Files.readString(stoppedLog);
        assertThat(interrupted.exitValue()).as(stoppedOutput).isNotZero();
        Matcher durable = Pattern.compile(
                        "interrupted by SIGTERM at epoch ([23]) step \\d+: (checkpoint-epoch-\\d+(?:-step-\\d+)?\\.pt)"
                                + " is durable, exiting 143")
                .matcher(stoppedOutput);
        assertThat(durable.find()).as(stoppedOutput).isTrue();
        assertVerified(stopped.resolve(durable.group(2)));
        assertThat(stopped.resolve("model.pt")).as("stopped before the end").doesNotExist();
        Result afterStop = run(python, train(python, scripts, data, stopped, 3), Duration.ofMinutes(2));
        Matcher resumedFrom = Pattern.compile(
                        "resuming from (\\S+) at epoch \\d+(?: step \\d+)? \\(resumedFromEpoch=(\\d+),"
                                + " SHA-256 verified\\)")
                .matcher(afterStop.log);
        assertThat(resumedFrom.find()).as(afterStop.log).isTrue();
        assertThat(resumedFrom.group(1)).isEqualTo(durable.group(2));
        assertThat(Integer.parseInt(resumedFrom.group(2))).isGreaterThanOrEqualTo(1);
        JsonNode stoppedMetrics = trainMetrics(stopped);
        assertThat(stoppedMetrics.path("resumedFromEpoch").asInt()).isEqualTo(Integer.parseInt(resumedFrom.group(2)));
        assertThat(stoppedMetrics.path("restarts").asInt()).isEqualTo(1);
        assertThat(stoppedMetrics.path("loss").asDouble())
                .as("the resumed epochs see the same batches in the same order")
                .isEqualTo(losses.get(2)[2], Offset.offset(0.01));
        JsonNode resumedEvaluation = evaluate(python, scripts, data, stopped);
        assertThat(resumedEvaluation.path("accuracy").asDouble())
                .as("within 2 points of the uninterrupted run")
                .isEqualTo(uninterrupted, Offset.offset(0.02));
        assertThat(resumedEvaluation.path("restarts").asInt()).isEqualTo(1);
        assertThat(resumedEvaluation.path("resumedFromEpoch").asInt()).isGreaterThanOrEqualTo(1);

        // Checkpoints that cannot be trusted are skipped, each with its reason: the newest torn (its
        // bytes no longer match its digest), the one before without a digest (a crash between the
        // rename and the digest). The training resumes from the first epoch's and retrains the rest.
        byte[] newest = Files.readAllBytes(first.resolve("checkpoint-epoch-3.pt"));
        newest[newest.length / 2] ^= 0x5a;
        Files.write(first.resolve("checkpoint-epoch-3.pt"), newest);
        Files.delete(first.resolve("checkpoint-epoch-2.pt.sha256"));
        Result distrusted = run(python, train(python, scripts, data, first, 3), Duration.ofMinutes(2));
        assertThat(distrusted.log)
                .containsPattern(
                        "(?m)^skipping checkpoint-epoch-3\\.pt: its SHA-256 \\w+… differs from the recorded \\w+…$")
                .containsPattern("(?m)^skipping checkpoint-epoch-2\\.pt: no checkpoint-epoch-2\\.pt\\.sha256: .+$")
                .contains("resuming from checkpoint-epoch-1.pt at epoch 2 (resumedFromEpoch=1, SHA-256 verified)");
        assertThat(losses(distrusted.log).stream().map(l -> (int) l[0]).toList())
                .isEqualTo(List.of(2, 3));
        assertVerified(first.resolve("checkpoint-epoch-3.pt"));
        assertThat(trainMetrics(first).path("resumedFromEpoch").asInt()).isEqualTo(1);

        // A training of four epochs killed once its second checkpoint exists, then restarted.
        Path second = work.resolve("shared/model-b");
        Path killedLog = work.resolve("killed.log");
        Process killed = start(python, train(python, scripts, data, second, 4), killedLog);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        // The digest is written last: once it exists, the checkpoint is complete.
        while (!Files.exists(second.resolve("checkpoint-epoch-2.pt.sha256"))
                && killed.isAlive()
                && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(second.resolve("checkpoint-epoch-2.pt.sha256"))
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

    private JsonNode evaluate(PythonRuntime python, Path scripts, Path data, Path model)
            throws IOException, InterruptedException {
        Path termination = Files.createTempFile(work, "termination", ".json");
        run(
                python,
                List.of(
                        python.python().toString(),
                        scripts.resolve("evaluate.py").toString(),
                        "--data-dir",
                        data.toString(),
                        "--model-dir",
                        model.toString(),
                        "--metrics-file",
                        termination.toString()),
                Duration.ofMinutes(1));
        return new ObjectMapper().readTree(Files.readString(termination));
    }

    private static JsonNode trainMetrics(Path model) throws IOException {
        return new ObjectMapper().readTree(model.resolve("train-metrics.json").toFile());
    }

    /** The checkpoint exists and its {@code .sha256} (sha256sum format) names it and matches its bytes. */
    private static void assertVerified(Path checkpoint) throws IOException, NoSuchAlgorithmException {
        assertThat(checkpoint).exists();
        Path digestFile = checkpoint.resolveSibling(checkpoint.getFileName() + ".sha256");
        String expected =
                HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(checkpoint)));
        assertThat(Files.readString(digestFile)).isEqualTo(expected + "  " + checkpoint.getFileName() + "\n");
    }

    private static void awaitFile(Path file, Process process, Path log) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (!Files.exists(file) && process.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(file).as(Files.readString(log)).exists();
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
