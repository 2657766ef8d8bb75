package io.trainplane.local.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.local.Faults;
import io.trainplane.local.LocalCloud;
import io.trainplane.local.LocalRun;
import io.trainplane.local.RunReport;
import io.trainplane.spec.RunSpecs;
import io.trainplane.workload.TorchEnvironment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class ProcessWorkloadTest {
    @TempDir
    Path work;

    @Test
    void foldsTheIndexedJobsTopologyIntoOneStandaloneTorchrunAndMapsTheMounts() {
        PythonRuntime python = new PythonRuntime(Path.of("/opt/py/bin/python"));
        try (ProcessWorkload runtime = new ProcessWorkload(python, work, false)) {
            Path termination = work.resolve("pods/x/termination-log");
            List<String> training = runtime.localCommand(List.of("torchrun", "--nnodes=2", "--nproc-per-node=3", "--max-restarts=3",
                    "--rdzv-backend=c10d", "--rdzv-endpoint=tp-a-train-0.tp-a-train:29400", "--rdzv-id", "a",
                    "/workload/train.py", "--data-dir", "/shared/data", "--output-dir=/shared/model", "--epochs", "2"), null, 2, termination);
            assertThat(training).containsExactly("/opt/py/bin/python", "-m", "torch.distributed.run",
                    "--standalone", "--nnodes=1", "--nproc-per-node=6", "--max-restarts=3",
                    work.resolve("workload/train.py").toString(), "--data-dir", work.resolve("shared/data").toString(),
                    "--output-dir=" + work.resolve("shared/model"), "--epochs", "2");

            List<String> evaluation = runtime.localCommand(List.of("python", "/workload/evaluate.py", "--model-dir", "/shared/model",
                    "--metrics-file", "/dev/termination-log"), null, 1, termination);
            assertThat(evaluation).containsExactly("/opt/py/bin/python", work.resolve("workload/evaluate.py").toString(),
                    "--model-dir", work.resolve("shared/model").toString(), "--metrics-file", termination.toString());
            assertThat(work.resolve("workload/train.py")).exists();
        }
        assertThat(work).doesNotExist();
    }

    @Test
    void aFailedProcessWithoutMessageReportsTheTailOfItsLog() {
        String log = String.join("\n", java.util.stream.IntStream.range(0, 200).mapToObj(i -> "line " + i).toList());
        assertThat(ProcessWorkload.tail(log, 80, 2048)).startsWith("line 120").endsWith("line 199");
    }

    /** The real state machine, the simulated cloud, and the pods' commands run for real: the accuracy is measured. */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void trainsAndEvaluatesForRealInALocalRun() throws Exception {
        PythonRuntime python = TorchEnvironment.python();
        String spec = Files.readString(Path.of("examples/cifar10-local.json"));
        List<String> events = new ArrayList<>();
        long started = System.nanoTime();
        RunReport report;
        try (ProcessWorkload runtime = new ProcessWorkload(python, work.resolve("run"), true);
             LocalCloud cloud = new LocalCloud(runtime)) {
            report = new LocalRun(cloud, Faults.none(), e -> events.add(e.type())).execute(RunSpecs.normalize(spec), "cifar10-local");
            String trainingLog = Files.readString(work.resolve("run/pods/tp-cifar10-local-train/log"));
            assertThat(trainingLog).contains("data ready", "epoch 1/2 loss", "epoch 2/2 loss");
            assertThat(trainingLog).contains("--nproc-per-node=2");
        }
        assertThat(report.status()).as(report.toString()).isEqualTo("SUCCEEDED");
        assertThat(report.metrics()).doesNotContainKey("simulated");
        assertThat(report.metrics().get("accuracy").doubleValue()).isGreaterThan(0.3);
        assertThat(report.metrics()).containsKey("accuracy.truck");
        assertThat(report.resources().remaining()).isEmpty();
        System.out.printf("local run with the process runtime: %s in %d ms, metrics %s%n",
                report.status(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), report.metrics());
    }
}
