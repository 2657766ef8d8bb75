package io.trainplane.local.process;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.Prerequisite;
import io.trainplane.TestTime;
import io.trainplane.core.FailureReason;
import io.trainplane.core.Json;
import io.trainplane.local.Faults;
import io.trainplane.local.LocalCloud;
import io.trainplane.local.LocalRun;
import io.trainplane.local.RunReport;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.RunSpecs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Secrets by reference, end to end in the twin with real processes: the training's process sees
 * the values its pod's fetch-secrets read as the run's Pod Identity (a Secrets Manager secret and
 * an SSM parameter), and neither value is in the run record, the events, the execution's input, the
 * pods' logs or the report. A reference the pods may not read, or to a secret that does not
 * exist, fails the run with SecretFetchFailed.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
public class ProcessSecretsTest {
    public static final String TOKEN = "hf_s3cr3t-value-never-logged";
    public static final String PASSWORD = "db-pa55word-never-logged";

    // Exits 7 unless both variables hold the values whose SHA-256 it is given; then writes a model and metrics.
    static final String TRAIN = "import hashlib, json, os, sys;"
            + " h = lambda n: hashlib.sha256(os.environ.get(n, '').encode()).hexdigest();"
            + " ok = h('HF_TOKEN') == sys.argv[1] and h('DB_PASSWORD') == sys.argv[2];"
            + " print('both secrets seen' if ok else 'the secrets are not the expected ones');"
            + " ok or sys.exit(7);"
            + " out = os.environ['TRAINPLANE_OUTPUT_DIR']; os.makedirs(out, exist_ok=True);"
            + " open(os.path.join(out, 'model.pt'), 'wb').write(b'model');"
            + " json.dump({'accuracy': 0.9}, open(os.path.join(out, 'metrics.json'), 'w'))";

    static final String PREPARE = "import os; d = os.environ['TRAINPLANE_DATA_DIR']; os.makedirs(d, exist_ok=True);"
            + " open(os.path.join(d, '.trainplane-ready'), 'w').close()";

    public static ObjectNode spec(String runId, String secretArn, String parameter) {
        ObjectNode spec = (ObjectNode) Json.read(
                """
                {"runId": "%s",
                 "cluster": {"mode": "create", "kubernetesVersion": "1.35",
                             "nodeGroup": {"instanceType": "c5.2xlarge", "nodes": 1}},
                 "training": {"workers": 1, "cpu": "6", "memory": "12Gi"},
                 "workload": {"image": "python:3.12-slim", "code": "image", "launcher": "none",
                              "commands": {"prepare": {"args": ["python3", "-c", "%s"]},
                                           "train": {"args": ["python3", "-c", "TRAIN", "%s", "%s"],
                                                     "env": {"HF_TOKEN": {"secretArn": "%s"},
                                                             "DB_PASSWORD": {"ssmParameter": "%s"},
                                                             "PLAIN": "1"}}}},
                 "evaluation": {"minAccuracy": 0.1}}
                """
                        .formatted(runId, PREPARE, sha256(TOKEN), sha256(PASSWORD), secretArn, parameter));
        ((com.fasterxml.jackson.databind.node.ArrayNode) spec.at("/workload/commands/train/args")).set(2, TRAIN);
        return spec;
    }

    @Test
    void theTrainingSeesTheValuesAndNoRecordEventInputOrLogHoldsThem(@TempDir Path work) throws Exception {
        Path python3 = PythonRuntime.onPath("python3", System.getenv()).orElse(null);
        Prerequisite.require(python3 != null, "no python3 on PATH");
        try (ProcessWorkload runtime = new ProcessWorkload(new PythonRuntime(python3), work, false);
                LocalCloud cloud = new LocalCloud(TestTime.START, runtime)) {
            String arn = cloud.secrets().putSecret("trainplane/hf-token", TOKEN);
            cloud.secrets().putParameter("/trainplane/db-password", PASSWORD);
            RunReport report = new LocalRun(cloud, Faults.none(), e -> {})
                    .execute(
                            RunSpecs.normalize(Json.write(spec("secret-run", arn, "/trainplane/db-password"))),
                            "secret-run");

            assertThat(report.status())
                    .as(report.error() + " " + report.cause())
                    .isEqualTo("SUCCEEDED");
            assertThat(Files.readString(work.resolve("pods/tp-secret-run-train/log")))
                    .contains("both secrets seen");

            String record = new RunStore(cloud.clients().dynamoDb(), LocalCloud.tableName(), cloud.clock())
                    .get("secret-run")
                    .toString();
            assertThat(record).contains(arn, "parameter/trainplane/db-password");
            StringBuilder seen = new StringBuilder(record).append(report);
            cloud.bus().events().forEach(e -> seen.append(e.envelope()));
            cloud.stepFunctions().executions().forEach(e -> seen.append(e.input()));
            try (Stream<Path> files = Files.walk(work)) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    seen.append(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1));
                }
            }
            assertThat(seen.toString()).contains("Run Started").doesNotContain(TOKEN, PASSWORD);
            assertThat(cloud.iam().entries())
                    .filteredOn(e -> e.action().startsWith("secretsmanager:")
                            || e.action().startsWith("ssm:"))
                    .extracting(e -> e.role() + " " + e.action() + " " + e.decision())
                    .containsExactlyInAnyOrder(
                            "RunOutputsRole secretsmanager:GetSecretValue Allowed",
                            "RunOutputsRole ssm:GetParameter Allowed");
        }
    }

    @Test
    void aSecretThatDoesNotExistFailsTheRunWithSecretFetchFailed(@TempDir Path work) throws Exception {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            cloud.secrets().putParameter("/trainplane/db-password", PASSWORD);
            String missing = "arn:aws:secretsmanager:us-east-1:000000000000:secret:trainplane/nowhere-AbCdEf";
            RunReport report = new LocalRun(cloud, Faults.none(), e -> {})
                    .execute(
                            RunSpecs.normalize(Json.write(spec("no-secret", missing, "/trainplane/db-password"))),
                            "no-secret");

            assertThat(report.status()).isEqualTo("FAILED");
            assertThat(report.error()).isEqualTo("SecretFetchFailed");
            assertThat(report.cause()).contains("HF_TOKEN", missing, "ResourceNotFoundException");
            assertThat(FailureReason.SecretFetchFailed.advice())
                    .hasValueSatisfying(a -> assertThat(a).contains("RunSecretsPrefix"));
            assertThat(report.resources().remaining()).isEmpty();
        }
    }

    @Test
    void aReferenceOutsideRunSecretsPrefixIsRefusedByStartRunBeforeAnythingIsCreated() {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            String arn = cloud.secrets().putSecret("team-x/hf-token", TOKEN);
            RunReport report = new LocalRun(cloud, Faults.none(), e -> {})
                    .execute(
                            RunSpecs.normalize(Json.write(spec("outside", arn, "/trainplane/db-password"))), "outside");

            assertThat(report.status()).isEqualTo("FAILED");
            assertThat(report.failedState()).isEqualTo("StartRun");
            assertThat(report.cause())
                    .contains(
                            "/workload/commands/train/env/HF_TOKEN",
                            "team-x/hf-token",
                            "RunSecretsPrefix 'trainplane/'");
            assertThat(report.resources().created()).isEmpty();
            assertThat(cloud.inventory()).isEmpty();
        }
    }

    static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
