package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.TestTime;
import io.trainplane.cli.IamReport;
import io.trainplane.core.Json;
import io.trainplane.local.iam.AuditEntry;
import io.trainplane.local.iam.AuditLog;
import io.trainplane.local.iam.Decision;
import io.trainplane.local.iam.Evaluation;
import io.trainplane.local.iam.IamRequest;
import io.trainplane.local.iam.IamSimulate;
import io.trainplane.local.iam.StackTemplate;
import io.trainplane.local.process.ProcessSecretsTest;
import io.trainplane.spec.RunSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pods' reads of secrets by reference, judged by iam-simulate: a run's fetch-secrets reads
 * (GetSecretValue, GetParameter as RunOutputsRole, with the session's principal tags) are allowed,
 * the same reads aimed outside RunSecretsPrefix are denied, and iam-simulate agrees with each
 * decision.
 */
class SecretsIamReplayTest {
    @Test
    void thePodsReadsInsideTheprefixAreAllowedOutsideDeniedAndIamSimulateAgrees(@TempDir Path dir) throws Exception {
        List<AuditEntry> reads;
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            String arn = cloud.secrets().putSecret("trainplane/hf-token", ProcessSecretsTest.TOKEN);
            cloud.secrets().putParameter("/trainplane/db-password", ProcessSecretsTest.PASSWORD);
            RunReport report = new LocalRun(cloud, Faults.none(), e -> {})
                    .execute(
                            RunSpecs.normalize(
                                    Json.write(ProcessSecretsTest.spec("secret-iam", arn, "/trainplane/db-password"))),
                            "secret-iam");
            assertThat(report.status())
                    .as(report.error() + " " + report.cause())
                    .isEqualTo("SUCCEEDED");
            reads = cloud.iam().entries().stream()
                    .filter(e -> e.action().equals("secretsmanager:GetSecretValue")
                            || e.action().equals("ssm:GetParameter"))
                    .toList();
        }
        assertThat(reads).extracting(AuditEntry::action).contains("secretsmanager:GetSecretValue", "ssm:GetParameter");
        assertThat(reads).allSatisfy(e -> {
            assertThat(e.role()).isEqualTo("RunOutputsRole");
            assertThat(e.decision()).isEqualTo(Decision.Allowed);
            assertThat(e.context()).containsKey("aws:PrincipalTag/kubernetes-namespace");
        });

        var policies = StackTemplate.local().policies();
        List<AuditEntry> outside = new ArrayList<>();
        for (AuditEntry read : reads) {
            IamRequest request = new IamRequest(
                    read.action(), read.resource().replace("trainplane/", "another-team/"), read.context());
            Evaluation decision = policies.evaluate(read.role(), request);
            outside.add(new AuditEntry(
                    read.function(),
                    read.role(),
                    read.principal(),
                    request.action(),
                    request.resource(),
                    request.context(),
                    decision.decision(),
                    decision.statement()));
        }
        assertThat(outside).allSatisfy(e -> assertThat(e.decision())
                .as("%s %s", e.action(), e.resource())
                .isEqualTo(Decision.ImplicitlyDenied));

        Path log = dir.resolve("secrets.jsonl");
        List<AuditEntry> all = new ArrayList<>(reads);
        all.addAll(outside);
        Files.writeString(
                log, all.stream().map(e -> Json.write(AuditLog.json(e))).collect(Collectors.joining("\n", "", "\n")));
        Path template = dir.resolve("policies.json");
        Files.writeString(template, Json.write(IamReport.json(StackTemplate.local())));
        IamSimulate.Replay replay = IamSimulate.installed().replay(template, log);
        assertThat(replay.offenses()).as(replay.output()).isEmpty();
        assertThat(replay.agree()).isEqualTo(all.size());
    }
}
