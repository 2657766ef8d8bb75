package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.local.iam.Callers;
import io.trainplane.local.iam.StackPrincipals;
import io.trainplane.local.iam.StackTemplate;
import io.trainplane.local.sim.ClusterFault;
import io.trainplane.local.sim.SimulatedS3.ObjectVersion;
import io.trainplane.local.sim.SimulatedS3.Transport;
import io.trainplane.runs.RunOutputs;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.RunSpecs;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The outputs Job copies the model, the metrics and the last verified checkpoint to the artifacts
 * bucket as the run's pod identity; the record and the Run Succeeded event carry the model's URI
 * and the SHA-256 of the object S3 holds; cleanup and the janitor leave the objects alone.
 */
class RunOutputsTest {
    static final String BUCKET = "trainplane-artifactsbucket";

    record Finished(
            RunReport report,
            RunRecord record,
            JsonNode succeeded,
            JsonNode cleanedUp,
            List<ObjectVersion> objects,
            byte[] model,
            java.util.Map<String, String> checkpointDigests) {}

    static Finished quickstart(Faults faults) throws Exception {
        ObjectNode spec = ClusterRulesRunTest.example("quickstart.json");
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunReport r = new LocalRun(cloud, faults, e -> {})
                    .execute(
                            RunSpecs.normalize(Json.write(spec)),
                            spec.path("runId").asText());
            RunRecord record =
                    new RunStore(cloud.clients().dynamoDb(), LocalCloud.tableName(), cloud.clock()).get(r.runId());
            JsonNode succeeded = cloud.bus().events().stream()
                    .filter(e -> e.detailType().equals("Run Succeeded"))
                    .map(e -> e.detail())
                    .findFirst()
                    .orElse(null);
            JsonNode cleanedUp = cloud.bus().events().stream()
                    .filter(e -> e.detailType().equals("Run Cleaned Up"))
                    .map(e -> e.detail())
                    .findFirst()
                    .orElse(null);
            LocalJanitor.sweep(cloud);
            var names = new io.trainplane.spec.Names(r.runId());
            var reader = new StackPrincipals(StackTemplate.local())
                    .pod(
                            "RunOutputsRole",
                            "reader",
                            "reader",
                            java.util.Map.of("kubernetes-namespace", names.namespace()));
            String prefix = names.artifactsPrefix();
            List<ObjectVersion> objects =
                    Callers.as(reader, () -> cloud.s3().listObjectsV2(BUCKET, prefix, Transport.TLS));
            byte[] model = objects.stream().anyMatch(o -> o.key().equals(prefix + "model.pt"))
                    ? Callers.as(reader, () -> cloud.s3().getObject(BUCKET, prefix + "model.pt", Transport.TLS))
                    : null;
            // The .sha256 files the checkpoint sidecar put, by the checkpoint's key.
            java.util.Map<String, String> digests = new java.util.TreeMap<>();
            for (ObjectVersion o : objects) {
                if (o.key().startsWith(prefix + "checkpoints/") && o.key().endsWith(".sha256")) {
                    byte[] line = Callers.as(reader, () -> cloud.s3().getObject(BUCKET, o.key(), Transport.TLS));
                    digests.put(
                            o.key().substring(0, o.key().length() - ".sha256".length()),
                            new String(line, java.nio.charset.StandardCharsets.UTF_8).split(" ")[0]);
                }
            }
            return new Finished(r, record, succeeded, cleanedUp, objects, model, digests);
        }
    }

    static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    void assertOutputsKept(Finished f) throws Exception {
        assertThat(f.report().status())
                .as(f.report().error() + " " + f.report().cause())
                .isEqualTo("SUCCEEDED");
        String prefix = new io.trainplane.spec.Names(f.report().runId()).artifactsPrefix();
        RunOutputs outputs = f.record().outputs();
        assertThat(outputs).isNotNull();
        assertThat(outputs.s3Uri()).isEqualTo("s3://" + BUCKET + "/" + prefix);
        assertThat(outputs.modelUri()).isEqualTo("s3://" + BUCKET + "/" + prefix + "model.pt");
        // Kept after teardown and after the janitor; the SHA-256 recorded is the stored object's.
        assertThat(f.objects())
                .extracting(ObjectVersion::key)
                .contains(prefix + "model.pt", prefix + "train-metrics.json", prefix + "eval-metrics.json")
                .anyMatch(k -> k.matches(".*/checkpoint-epoch-\\d+\\.pt"))
                .anyMatch(k -> k.matches(".*/checkpoint-epoch-\\d+\\.pt\\.sha256"));
        assertThat(f.model()).isNotNull();
        assertThat(outputs.modelSha256()).isEqualTo(sha256(f.model()));
        assertThat(f.objects().stream()
                        .filter(o -> o.key().equals(prefix + "model.pt"))
                        .findFirst()
                        .orElseThrow()
                        .sha256Hex())
                .isEqualTo(outputs.modelSha256());
        assertThat(outputs.checkpoint()).matches("checkpoint-epoch-\\d+\\.pt");
        JsonNode output = f.succeeded().path("output");
        assertThat(output.path("modelUri").asText()).isEqualTo(outputs.modelUri());
        assertThat(output.path("modelSha256").asText()).isEqualTo(outputs.modelSha256());
        assertThat(output.path("s3Uri").asText()).isEqualTo(outputs.s3Uri());
        // Nothing of the run is left behind: the outputs are kept on purpose, and Run Cleaned Up says so.
        assertThat(f.report().resources().remaining()).isEmpty();
        assertThat(f.cleanedUp().path("kept").toString()).isEqualTo("[\"s3:outputs/" + BUCKET + "/" + prefix + "\"]");
    }

    @Test
    void theQuickstartsModelIsInS3WithItsSha256InTheRecordAndTheEvent() throws Exception {
        assertOutputsKept(quickstart(Faults.none()));
    }

    @Test
    void withANodeLostTheResumedTrainingsModelIsThereToo() throws Exception {
        Finished f = quickstart(Faults.onCluster(ClusterFault.NODE_LOST));
        assertOutputsKept(f);
        assertThat(f.record().metrics().get("restarts")).isGreaterThanOrEqualTo(1.0);
        // The checkpoint sidecar put each epoch's checkpoint, those before the fault included,
        // under checkpoints/ with a digest that matches the object S3 holds.
        String checkpoints = new io.trainplane.spec.Names(f.report().runId()).artifactsPrefix() + "checkpoints/";
        int resumedFrom = f.record().metrics().get("resumedFromEpoch").intValue();
        assertThat(resumedFrom).isPositive();
        for (int epoch = 1; epoch <= 10; epoch++) {
            String key = checkpoints + "checkpoint-epoch-" + epoch + ".pt";
            ObjectVersion stored = f.objects().stream()
                    .filter(o -> o.key().equals(key))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no " + key + " in " + f.objects()));
            assertThat(f.checkpointDigests().get(key)).as(key).isEqualTo(stored.sha256Hex());
        }
        assertThat(f.succeeded().path("output").path("checkpoints").asText())
                .isEqualTo("s3://" + BUCKET + "/" + checkpoints);
        assertThat(f.cleanedUp().path("checkpoints").asText()).isEqualTo("s3://" + BUCKET + "/" + checkpoints);
        assertThat(f.record().resources().get(io.trainplane.runs.RunResources.CHECKPOINT_SYNC_FAILED))
                .isEmpty();
    }
}
