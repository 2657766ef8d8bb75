package io.trainplane.local.process;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.local.Faults;
import io.trainplane.local.LocalCloud;
import io.trainplane.local.LocalRun;
import io.trainplane.local.RunReport;
import io.trainplane.spec.RunSpecs;
import io.trainplane.workload.TorchEnvironment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CIFAR-10 example with training.launcher "mpijob" on the process runtime: it trains for real,
 * the launcher's two processes (two workers of one slot) under the torchrun that stands in for mpirun.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ProcessMpiJobTest {
    @Test
    void anMpiJobsLauncherTrainsForRealWithAProcessPerSlot(@TempDir Path dir) throws Exception {
        PythonRuntime python = TorchEnvironment.python();
        ObjectNode spec = (ObjectNode) Json.read(Files.readString(Path.of("examples/cifar10-local.json")));
        ((ObjectNode) spec.get("training"))
                .put("launcher", "mpijob")
                .put("image", "horovod/horovod:0.28.1")
                .put("workers", 2)
                .put("procsPerWorker", 1);
        RunReport report;
        try (ProcessWorkload runtime = new ProcessWorkload(python, dir, true);
                LocalCloud cloud = new LocalCloud(TestTime.START, runtime)) {
            report = new LocalRun(cloud, Faults.none(), e -> {})
                    .execute(RunSpecs.normalize(Json.write(spec)), "cifar10-local");
        }

        assertThat(report.status()).as(report.toString()).isEqualTo("SUCCEEDED");
        assertThat(report.metrics()).doesNotContainKey("simulated").containsKey("accuracy.truck");
        assertThat(report.metrics().get("accuracy").doubleValue()).isGreaterThan(0.3);
        Path launcher;
        try (var pods = Files.list(dir.resolve("pods"))) {
            launcher = pods.filter(d -> d.getFileName().toString().startsWith("tp-cifar10-local-train-launcher"))
                    .findFirst()
                    .orElseThrow();
        }
        assertThat(Files.readString(launcher.resolve("log")))
                .contains("--nproc-per-node=2", "epoch 1/2 loss", "epoch 2/2 loss", "starting fresh")
                .doesNotContain("mpirun", "resuming from");
        assertThat(dir.resolve("shared/model/model.pt")).isNotEmptyFile();
        assertThat(report.resources().remaining()).isEmpty();
    }
}
