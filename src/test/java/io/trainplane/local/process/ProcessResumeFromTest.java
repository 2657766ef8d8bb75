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
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * training.resumeFrom with the real workload: the first run's checkpoint, kept in the simulated S3
 * by its outputs Job, is fetched by the second run's data pod (as the pod's identity) onto its
 * volume, and the real train.py resumes from it.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class ProcessResumeFromTest {
    @Test
    void theSecondRunsTrainingResumesFromTheFirstRunsCheckpoint(@TempDir Path work) throws Exception {
        PythonRuntime python = TorchEnvironment.python();
        ObjectNode spec = (ObjectNode) Json.read(Files.readString(Path.of("examples/cifar10-local.json")));
        int epochs = spec.path("training").path("epochs").asInt();
        try (ProcessWorkload runtime = new ProcessWorkload(python, work, true);
                LocalCloud cloud = new LocalCloud(TestTime.START, runtime)) {
            RunReport first = new LocalRun(cloud, Faults.none(), e -> {})
                    .execute(RunSpecs.normalize(Json.write(spec)), "cifar10-local");
            assertThat(first.status()).as(first.cause()).isEqualTo("SUCCEEDED");
            // Each run has its own volume; the process runtime has one directory for all: emptied, as a new one.
            deleteTree(work.resolve("shared/model"));

            spec.put("runId", "cifar10-resumed");
            ((ObjectNode) spec.path("training")).put("epochs", epochs + 1).put("resumeFrom", "cifar10-local");
            RunReport second = new LocalRun(cloud, Faults.none(), e -> {})
                    .execute(RunSpecs.normalize(Json.write(spec)), "cifar10-resumed");

            assertThat(second.status())
                    .as(second.error() + " " + second.cause())
                    .isEqualTo("SUCCEEDED");
            assertThat(second.metrics().get("resumedFromEpoch")).isEqualTo((double) epochs);
            String log = Files.readString(work.resolve("pods/tp-cifar10-resumed-train/log"));
            assertThat(log)
                    .contains("resuming from checkpoint-epoch-" + epochs + ".pt", "SHA-256 verified")
                    .contains("epoch " + (epochs + 1) + "/" + (epochs + 1))
                    .doesNotContain("epoch 1/");
        }
    }

    private static void deleteTree(Path dir) throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
