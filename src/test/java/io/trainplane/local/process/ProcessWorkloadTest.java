package io.trainplane.local.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.trainplane.Prerequisite;
import io.trainplane.local.sim.PodBehaviour;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessWorkloadTest {
    @TempDir
    Path work;

    @Test
    void foldsTheIndexedJobsTopologyIntoOneStandaloneTorchrunAndMapsTheMounts() {
        PythonRuntime python = new PythonRuntime(Path.of("/opt/py/bin/python"));
        try (ProcessWorkload runtime = new ProcessWorkload(python, work, false)) {
            Path termination = work.resolve("pods/x/termination-log");
            List<String> training = runtime.localCommand(
                    List.of(
                            "torchrun",
                            "--nnodes=2",
                            "--nproc-per-node=3",
                            "--max-restarts=3",
                            "--rdzv-backend=c10d",
                            "--rdzv-endpoint=tp-a-train-0.tp-a-train:29400",
                            "--rdzv-id",
                            "a",
                            "/workload/train.py",
                            "--data-dir",
                            "/shared/data",
                            "--output-dir=/shared/model",
                            "--epochs",
                            "2"),
                    null,
                    2,
                    termination);
            assertThat(training)
                    .containsExactly(
                            "/opt/py/bin/python",
                            "-m",
                            "torch.distributed.run",
                            "--standalone",
                            "--nnodes=1",
                            "--nproc-per-node=6",
                            "--max-restarts=3",
                            work.resolve("workload/train.py").toString(),
                            "--data-dir",
                            work.resolve("shared/data").toString(),
                            "--output-dir=" + work.resolve("shared/model"),
                            "--epochs",
                            "2");

            List<String> evaluation = runtime.localCommand(
                    List.of(
                            "python",
                            "/workload/evaluate.py",
                            "--model-dir",
                            "/shared/model",
                            "--metrics-file",
                            "/dev/termination-log"),
                    null,
                    1,
                    termination);
            assertThat(evaluation)
                    .containsExactly(
                            "/opt/py/bin/python",
                            work.resolve("workload/evaluate.py").toString(),
                            "--model-dir",
                            work.resolve("shared/model").toString(),
                            "--metrics-file",
                            termination.toString());
            assertThat(work.resolve("workload/train.py")).exists();
        }
        assertThat(work).doesNotExist();
    }

    @Test
    void aFailedProcessWithoutMessageReportsTheTailOfItsLog() {
        String log = String.join(
                "\n",
                java.util.stream.IntStream.range(0, 200)
                        .mapToObj(i -> "line " + i)
                        .toList());
        assertThat(ProcessWorkload.tail(log, 80, 2048)).startsWith("line 120").endsWith("line 199");
    }

    @Test
    void aPodEndsWithItsProcessAndAFailureCarriesTheLogsTail() throws Exception {
        Path python3 = PythonRuntime.onPath("python3", System.getenv()).orElse(null);
        Prerequisite.require(python3 != null, "no python3 on PATH");
        Job job = new JobBuilder()
                .withNewMetadata()
                .withName("tp-x-eval")
                .withNamespace("tp-x")
                .withUid("u1")
                .withLabels(java.util.Map.of("app.kubernetes.io/component", "evaluation"))
                .endMetadata()
                .withNewSpec()
                .withCompletions(1)
                .endSpec()
                .build();
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withName("tp-x-eval-abc")
                .withNamespace("tp-x")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("evaluator")
                .withTerminationMessagePolicy("FallbackToLogsOnError")
                .withCommand(
                        "python3",
                        "-c",
                        "import sys, time; time.sleep(1); print('boom at ' + sys.argv[1]); sys.exit(4)",
                        "/shared/x")
                .endContainer()
                .endSpec()
                .build();
        try (ProcessWorkload runtime = new ProcessWorkload(new PythonRuntime(python3), work.resolve("run"), false)) {
            assertThat(runtime.poll(job, pod, null, Duration.ZERO))
                    .as("still running")
                    .isEmpty();
            PodBehaviour.Outcome outcome =
                    runtime.poll(job, pod, null, Duration.ofMinutes(1)).orElseThrow();
            assertThat(outcome.exitCode()).isEqualTo(4);
            assertThat(outcome.runtime()).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
            assertThat(outcome.terminationMessage()).contains("boom at " + work.resolve("run/shared/x"));
        }
    }
}
