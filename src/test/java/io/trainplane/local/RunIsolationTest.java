package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.cli.IamReport;
import io.trainplane.core.Json;
import io.trainplane.local.iam.AuditEntry;
import io.trainplane.local.iam.AuditLog;
import io.trainplane.local.iam.Decision;
import io.trainplane.local.iam.Evaluation;
import io.trainplane.local.iam.IamRequest;
import io.trainplane.local.iam.IamSimulate;
import io.trainplane.local.iam.StackTemplate;
import io.trainplane.spec.Names;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One run's pods cannot reach another run's data: every S3 call the quickstart's pods made,
 * aimed at another run's prefix in the same session (the same EKS Pod Identity session tags), is
 * denied by template.yaml's RunOutputsRole, and iam-simulate, judging the same requests with the
 * session's principal tags, agrees with each decision.
 */
class RunIsolationTest {
    @Test
    void everyPodCallAimedAtAnotherRunsPrefixIsDeniedAndIamSimulateAgrees(@TempDir Path dir) throws Exception {
        ExampleRuns.Outcome run = ExampleRuns.quickstart();
        String own = new Names(run.report().runId()).artifactsPrefix();
        String theirs = new Names("another-run").artifactsPrefix();
        List<AuditEntry> podCalls = run.audit().stream()
                .filter(e -> "RunOutputsRole".equals(e.role())
                        && (e.resource().contains(own)
                                || e.context().getOrDefault("s3:prefix", List.of()).stream()
                                        .anyMatch(p -> p.startsWith(own))))
                .toList();
        assertThat(podCalls)
                .as("the quickstart's pods read and wrote their own prefix %s", own)
                .isNotEmpty()
                .allSatisfy(e -> {
                    assertThat(e.decision()).isEqualTo(Decision.Allowed);
                    assertThat(e.context())
                            .containsEntry("aws:PrincipalTag/kubernetes-namespace", List.of(own.split("/")[1]));
                });
        assertThat(podCalls).extracting(AuditEntry::action).contains("s3:PutObject");

        var policies = StackTemplate.local().policies();
        List<AuditEntry> aimed = new ArrayList<>();
        for (AuditEntry call : podCalls) {
            Map<String, List<String>> context = new TreeMap<>(call.context());
            context.computeIfPresent(
                    "s3:prefix",
                    (k, v) -> v.stream().map(p -> p.replace(own, theirs)).toList());
            IamRequest request = new IamRequest(call.action(), call.resource().replace(own, theirs), context);
            Evaluation decision = policies.evaluate(call.role(), request);
            aimed.add(new AuditEntry(
                    call.function(),
                    call.role(),
                    call.principal(),
                    request.action(),
                    request.resource(),
                    request.context(),
                    decision.decision(),
                    decision.statement()));
        }
        assertThat(aimed).allSatisfy(e -> assertThat(e.decision())
                .as("%s %s", e.action(), e.resource())
                .isEqualTo(Decision.ImplicitlyDenied));

        Path log = dir.resolve("aimed-at-another-run.jsonl");
        Files.writeString(
                log, aimed.stream().map(e -> Json.write(AuditLog.json(e))).collect(Collectors.joining("\n", "", "\n")));
        Path template = dir.resolve("policies.json");
        Files.writeString(template, Json.write(IamReport.json(StackTemplate.local())));
        IamSimulate.Replay replay = IamSimulate.installed().replay(template, log);
        assertThat(replay.offenses()).as(replay.output()).isEmpty();
        assertThat(replay.agree()).isEqualTo(aimed.size());
    }
}
