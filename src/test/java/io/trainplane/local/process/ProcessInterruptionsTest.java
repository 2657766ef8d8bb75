package io.trainplane.local.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.trainplane.TestTime;
import io.trainplane.local.Faults;
import io.trainplane.local.LocalCloud;
import io.trainplane.local.LocalRun;
import io.trainplane.local.RunReport;
import io.trainplane.local.sim.ClusterFault;
import io.trainplane.spec.RunSpecs;
import io.trainplane.workload.TorchEnvironment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real state machine, the simulated cloud, and the pods' commands run for real (torchrun, 2
 * processes): uninterrupted, and with a worker's node lost or reclaimed after the first epoch. The
 * interrupted training resumes from its checkpoint on the replacement pod and ends as good as the
 * uninterrupted one (same seed), within 2 points of accuracy.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ProcessInterruptionsTest {
    /** One for the class (static: an instance field is a new folder for each test): every test's runs. */
    @TempDir
    static Path work;

    PythonRuntime python;
    String spec;
    Outcome uninterrupted;

    /** {@code modelSha256}: of the model.pt the training wrote; {@code storedSha256}: of the object in S3. */
    /** {@code checkpoints}: the sidecar's objects under checkpoints/ (file name → the stored object's SHA-256); {@code digests}: what their .sha256 files say. */
    record Outcome(
            RunReport report,
            String trainingLog,
            String modelSha256,
            String storedSha256,
            String recordedSha256,
            java.util.Map<String, String> checkpoints,
            java.util.Map<String, String> digests,
            io.trainplane.runs.RunOutputs outputs) {
        double accuracy() {
            return report.metrics().get("accuracy").doubleValue();
        }
    }

    /**
     * The uninterrupted run, once for the class. Before each test rather than before all, so that a
     * machine without PyTorch reports each test skipped (fails it under CI) instead of hiding them.
     */
    @BeforeEach
    void trainUninterrupted() throws Exception {
        if (uninterrupted != null) {
            return;
        }
        python = TorchEnvironment.python();
        spec = Files.readString(Path.of("examples/cifar10-local.json"));
        uninterrupted = run("uninterrupted", Faults.none());
    }

    Outcome run(String name, Faults faults) throws Exception {
        return run(name, faults, spec);
    }

    Outcome run(String name, Faults faults, String spec) throws Exception {
        return run(name, faults, spec, cloud -> e -> {});
    }

    Outcome run(
            String name,
            Faults faults,
            String spec,
            java.util.function.Function<LocalCloud, java.util.function.Consumer<io.trainplane.local.asl.HistoryEvent>>
                    listener)
            throws Exception {
        Path dir = work.resolve(name);
        RunReport report;
        String stored;
        String recorded;
        io.trainplane.runs.RunOutputs outputs;
        java.util.Map<String, String> checkpoints = new java.util.TreeMap<>();
        java.util.Map<String, String> digests = new java.util.TreeMap<>();
        try (ProcessWorkload runtime = new ProcessWorkload(python, dir, true);
                LocalCloud cloud = new LocalCloud(TestTime.START, runtime)) {
            report = new LocalRun(cloud, faults, listener.apply(cloud))
                    .execute(RunSpecs.normalize(spec), "cifar10-local");
            var reader = new io.trainplane.local.iam.StackPrincipals(io.trainplane.local.iam.StackTemplate.local())
                    .pod(
                            "RunOutputsRole",
                            "reader",
                            "reader",
                            java.util.Map.of("kubernetes-namespace", "tp-cifar10-local"));
            String stored0;
            try {
                stored0 = io.trainplane.local.iam.Callers.as(reader, () -> cloud.s3()
                                .headObject(
                                        "trainplane-artifactsbucket",
                                        "runs/tp-cifar10-local/model.pt",
                                        io.trainplane.local.sim.SimulatedS3.Transport.TLS))
                        .sha256Hex();
            } catch (io.trainplane.local.sim.SimulatedS3.S3Exception e) {
                // A training stopped before its end wrote no model, and none was copied.
                assertThat(e.status()).isEqualTo(404);
                stored0 = null;
            }
            stored = stored0;
            outputs = new io.trainplane.runs.RunStore(cloud.clients().dynamoDb(), LocalCloud.tableName(), cloud.clock())
                    .get(report.runId())
                    .outputs();
            recorded = outputs == null ? null : outputs.modelSha256();
            String prefix = "runs/tp-cifar10-local/checkpoints/";
            for (var o : io.trainplane.local.iam.Callers.as(reader, () -> cloud.s3()
                    .listObjectsV2(
                            "trainplane-artifactsbucket", prefix, io.trainplane.local.sim.SimulatedS3.Transport.TLS))) {
                String file = o.key().substring(prefix.length());
                if (file.endsWith(".sha256")) {
                    byte[] line = io.trainplane.local.iam.Callers.as(reader, () -> cloud.s3()
                            .getObject(
                                    "trainplane-artifactsbucket",
                                    o.key(),
                                    io.trainplane.local.sim.SimulatedS3.Transport.TLS));
                    digests.put(file.substring(0, file.length() - ".sha256".length()), new String(line).split(" ")[0]);
                } else {
                    checkpoints.put(file, o.sha256Hex());
                }
            }
        }
        Path modelFile = dir.resolve("shared/model/model.pt");
        String onDisk = !Files.exists(modelFile)
                ? null
                : java.util.HexFormat.of()
                        .formatHex(java.security.MessageDigest.getInstance("SHA-256")
                                .digest(Files.readAllBytes(modelFile)));
        return new Outcome(
                report,
                Files.readString(dir.resolve("pods/tp-cifar10-local-train/log")),
                onDisk,
                stored,
                recorded,
                checkpoints,
                digests,
                outputs);
    }

    @Test
    void anUninterruptedTrainingTrainsEveryEpochOnceAndMeasuresItsAccuracy() throws Exception {
        RunReport report = uninterrupted.report();
        assertThat(report.status()).as(report.toString()).isEqualTo("SUCCEEDED");
        assertThat(report.metrics()).doesNotContainKey("simulated").containsKey("accuracy.truck");
        assertThat(uninterrupted.accuracy()).isGreaterThan(0.3);
        assertThat(report.metrics().get("restarts").intValue()).isZero();
        // The real model.pt, copied to the (simulated) S3 by the outputs pod as itself; the record has its digest.
        assertThat(uninterrupted.storedSha256()).isEqualTo(uninterrupted.modelSha256());
        assertThat(uninterrupted.recordedSha256()).isEqualTo(uninterrupted.modelSha256());
        // The data phase's pod prepared the data; training found it ready.
        Path dataPod;
        try (var pods = Files.list(work.resolve("uninterrupted/pods"))) {
            dataPod = pods.filter(d -> d.getFileName().toString().startsWith("tp-cifar10-local-data"))
                    .findFirst()
                    .orElseThrow();
        }
        assertThat(Files.readString(dataPod.resolve("log"))).contains("data ready");
        assertThat(uninterrupted.trainingLog())
                .contains("epoch 1/2 loss", "epoch 2/2 loss", "--nproc-per-node=2", "starting fresh")
                .doesNotContain("data ready", "resuming from");
        assertThat(report.resources().remaining()).isEmpty();
    }

    @Test
    void aLostNodeKillsTheTrainingWhichResumesFromItsCheckpointOnTheReplacement() throws Exception {
        Outcome lost = run("node-lost", Faults.onCluster(ClusterFault.NODE_LOST, 1));
        RunReport report = lost.report();
        assertThat(report.status()).as(report.toString()).isEqualTo("SUCCEEDED");
        assertThat(lost.trainingLog())
                .contains("epoch 1/2 loss", "--- node-lost: the process was stopped")
                .contains("resuming from checkpoint-epoch-1.pt at epoch 2 (resumedFromEpoch=1, SHA-256 verified)");
        assertThat(report.metrics().get("restarts").intValue()).isEqualTo(1);
        assertThat(report.metrics().get("resumedFromEpoch").intValue()).isEqualTo(1);
        assertThat(lost.accuracy()).isCloseTo(uninterrupted.accuracy(), within(0.02));
        assertThat(lost.storedSha256()).isEqualTo(lost.modelSha256());
        assertThat(lost.recordedSha256()).isEqualTo(lost.modelSha256());
        // The sidecar put the checkpoint written before the node went, and the resumed one's, with
        // digests matching what S3 stores.
        assertThat(lost.checkpoints()).containsKeys("checkpoint-epoch-1.pt", "checkpoint-epoch-2.pt");
        assertThat(lost.digests()).isEqualTo(lost.checkpoints());
        assertThat(report.resources().remaining()).isEmpty();
    }

    @Test
    void aSpotInterruptionLetsTheTrainingCheckpointBeforeItsNodeGoes() throws Exception {
        Outcome reclaimed = run("spot", Faults.onCluster(ClusterFault.SPOT_INTERRUPTION, 1));
        RunReport report = reclaimed.report();
        assertThat(report.status()).as(report.toString()).isEqualTo("SUCCEEDED");
        // SIGTERM mid-epoch 2: the training writes a checkpoint of the step it reached (its processes
        // exit 143, torchrun 1) and resumes from it.
        assertThat(reclaimed.trainingLog())
                .contains(
                        "interrupted by SIGTERM at epoch 2", "--- spot-interruption: the process was stopped (exit 1)")
                .containsPattern("resuming from checkpoint-epoch-1-step-\\d+\\.pt at epoch 2 step \\d+");
        assertThat(report.metrics().get("restarts").intValue()).isEqualTo(1);
        assertThat(report.metrics().get("resumedFromEpoch").intValue()).isEqualTo(1);
        assertThat(reclaimed.accuracy()).isCloseTo(uninterrupted.accuracy(), within(0.02));
        // The checkpoint written under SIGTERM reached S3 too.
        assertThat(reclaimed.checkpoints().keySet()).anyMatch(n -> n.matches("checkpoint-epoch-1-step-\\d+\\.pt"));
        assertThat(reclaimed.digests()).isEqualTo(reclaimed.checkpoints());
        assertThat(report.resources().remaining()).isEmpty();
    }

    @Test
    void aPyTorchJobsReplicasAreOneTrainingAsTorchrunSpansThem() throws Exception {
        var pyTorchJob = (com.fasterxml.jackson.databind.node.ObjectNode) io.trainplane.core.Json.read(spec);
        ((com.fasterxml.jackson.databind.node.ObjectNode) pyTorchJob.get("training")).put("launcher", "pytorchjob");
        Outcome o = run("pytorchjob", Faults.none(), io.trainplane.core.Json.write(pyTorchJob));
        RunReport report = o.report();
        assertThat(report.status()).as(report.toString()).isEqualTo("SUCCEEDED");
        // One torchrun of both replicas' processes, not one training per replica (which would
        // read as the second resuming from the first's checkpoints).
        assertThat(o.trainingLog())
                .contains("--nproc-per-node=2", "starting fresh")
                .doesNotContain("resuming from");
        assertThat(report.metrics().getOrDefault("restarts", 0.0)).isZero();
        assertThat(o.accuracy()).isCloseTo(uninterrupted.accuracy(), within(0.02));
        assertThat(report.resources().remaining()).isEmpty();
    }

    /**
     * A run stopped by its budget, on the path a spot notice takes: its training Job suspended, the
     * pods deleted, train.py SIGTERM'd, writing the checkpoint of the step it reached before it exits;
     * the outputs pod copies that checkpoint and no model. The budget's decision is recorded as
     * CheckTraining records it ({@code RunResources.BUDGET_REACHED}) once the training has reported its
     * first epoch: real training takes real time, which no cost figure fixed in the spec can aim into
     * (the cost side is RunBudgetTest's).
     */
    @Test
    void aBudgetStopsTheTrainingWhichCheckpointsAndKeepsItInS3() throws Exception {
        var budgeted = (com.fasterxml.jackson.databind.node.ObjectNode) io.trainplane.core.Json.read(spec);
        budgeted.put("budgetUsd", 1000);
        // Epochs of several seconds: the stop comes at the look after the first one, well before the last.
        ((com.fasterxml.jackson.databind.node.ObjectNode) budgeted.get("data")).put("syntheticSamples", 20000);
        ((com.fasterxml.jackson.databind.node.ObjectNode) budgeted.get("training")).put("epochs", 12);
        Outcome stopped = run("budget", Faults.none(), io.trainplane.core.Json.write(budgeted), cloud -> e -> {
            if (e.type().equals("TaskSucceeded")
                    && "CheckTraining".equals(e.stateName())
                    && e.details().at("/output/progress/epoch").asInt() >= 1) {
                new io.trainplane.runs.RunStore(cloud.clients().dynamoDb(), LocalCloud.tableName(), cloud.clock())
                        .update(
                                "cifar10-local",
                                r -> r.resources()
                                                .get(io.trainplane.runs.RunResources.BUDGET_REACHED)
                                                .isPresent()
                                        ? r
                                        : r.withResource(
                                                io.trainplane.runs.RunResources.BUDGET_REACHED,
                                                "the run's cost reached its budget"));
            }
        });
        RunReport report = stopped.report();
        assertThat(report.status()).as(report.toString()).isEqualTo("BUDGET_REACHED");
        assertThat(report.error()).isEqualTo("BudgetReached");
        assertThat(report.events()).contains("Run Stopped").doesNotContain("Model Evaluated", "Run Succeeded");
        assertThat(stopped.trainingLog())
                .contains("interrupted by SIGTERM", "--- the pod was deleted: the process was stopped")
                .doesNotContain("epoch 12/12");
        assertThat(stopped.modelSha256())
                .as("model.pt is written only at the end")
                .isNull();
        // The checkpoint written under SIGTERM, put into S3 by the outputs pod and recorded with its digest.
        var kept = stopped.outputs();
        assertThat(kept.modelUri()).isNull();
        assertThat(kept.checkpoint()).matches("checkpoint-epoch-\\d+-step-\\d+\\.pt");
        assertThat(stopped.checkpoints()).containsEntry(kept.checkpoint(), kept.checkpointSha256());
        assertThat(stopped.digests()).isEqualTo(stopped.checkpoints());
        assertThat(report.resources().remaining()).isEmpty();
    }
}
