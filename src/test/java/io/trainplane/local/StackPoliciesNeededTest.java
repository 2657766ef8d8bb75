package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.TestTime;
import io.trainplane.local.iam.AuditEntry;
import io.trainplane.local.iam.StackPolicies;
import io.trainplane.local.iam.StackPrincipals;
import io.trainplane.local.iam.StackTemplate;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every statement of template.yaml that the quickstart relies on is needed: without it the run
 * fails with the service's AccessDeniedException naming the action, and cleanup still runs.
 */
class StackPoliciesNeededTest {
    static String quickstart;
    static List<AuditEntry> baseline;

    record Outcome(RunReport report, List<AuditEntry> audit) {}

    @BeforeAll
    static void baseline() throws IOException {
        quickstart = Files.readString(Path.of("examples/quickstart.json"));
        // The healthy quickstart run under template.yaml's policies (LocalCloud's own), shared with the
        // other tests that read one (ExampleRuns).
        ExampleRuns.Outcome quickstartRun = ExampleRuns.quickstart();
        Outcome ok = new Outcome(quickstartRun.report(), quickstartRun.audit());
        assertThat(ok.report().status())
                .as("the quickstart under template.yaml's policies")
                .isEqualTo("SUCCEEDED");
        assertThat(ok.audit())
                .filteredOn(e -> !e.decision().allowed())
                .as("denials of the quickstart")
                .isEmpty();
        baseline = ok.audit();
    }

    static Outcome run(StackPolicies policies) {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            cloud.iam().judgeBy(StackPrincipals.authorizer(policies));
            RunReport report =
                    new LocalRun(cloud, Faults.none(), e -> {}).execute(RunSpecs.normalize(quickstart), "quickstart");
            return new Outcome(report, cloud.iam().entries());
        }
    }

    /** The statements that allowed a call of the quickstart, each once. */
    static Stream<String> statementsTheQuickstartUses() throws IOException {
        if (baseline == null) {
            baseline();
        }
        Set<String> used = new TreeSet<>();
        baseline.stream().map(AuditEntry::statement).filter(Objects::nonNull).forEach(used::add);
        return used.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("statementsTheQuickstartUses")
    void withoutTheStatementTheQuickstartFailsNamingTheDeniedAction(String statement) {
        Set<String> actions = new TreeSet<>();
        baseline.stream().filter(e -> statement.equals(e.statement())).forEach(e -> actions.add(e.action()));

        Outcome without = run(StackTemplate.local().policies().without(statement));

        List<AuditEntry> denied =
                without.audit().stream().filter(e -> !e.decision().allowed()).toList();
        RunReport report = without.report();
        if (denied.isEmpty()) {
            // Another statement grants the same calls (DescribeRunClusters beside an empty
            // ExistingClusterNamePrefix): not needed by the quickstart.
            assertThat(report.status()).isEqualTo("SUCCEEDED");
            return;
        }
        assertThat(denied).extracting(AuditEntry::action).containsAnyElementsOf(actions);
        if (denied.stream().allMatch(e -> e.action().equals("events:PutEvents"))) {
            // A lost event does not fail the run: the summary names each one.
            assertThat(report.status()).isEqualTo("SUCCEEDED");
            assertThat(String.join(" ", report.warnings())).contains("not authorized to perform: events:PutEvents");
            return;
        }
        if (denied.stream().allMatch(e -> e.action().startsWith("dynamodb:") && "RunRecordRole".equals(e.role()))) {
            // The functions that end the run cannot write its record: the execution fails, and the
            // record stays where StartRun's role last wrote it.
            assertThat(report.executionStatus()).isEqualTo("FAILED");
            assertThat(report.status()).isNotEqualTo("SUCCEEDED");
            return;
        }
        assertThat(report.status()).isEqualTo("FAILED");
        String error = report.error() + " " + report.cause();
        if (denied.stream().allMatch(e -> e.function() != null && e.function().startsWith("kubelet on "))) {
            // The node role's image pulls: no service error reaches a function; EKS's own add-on
            // images (in its private ECR registries) are not pulled and the add-ons degrade.
            assertThat(error).contains("add-on", "degraded");
            return;
        }
        // EC2 answers a denial with UnauthorizedOperation
        // (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html).
        assertThat(error)
                .containsAnyOf(
                        "AccessDeniedException", "AccessDenied", "UnauthorizedOperation", "Lambda.AWSLambdaException")
                .contains(denied.get(0).action());
    }
}
