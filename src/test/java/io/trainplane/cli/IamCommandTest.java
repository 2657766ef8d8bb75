package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code trainplane iam}: the stack's roles and policies as local mode evaluates them. */
class IamCommandTest {

    static JsonNode role(JsonNode report, String logicalId) {
        for (JsonNode role : report.get("roles")) {
            if (role.get("logicalId").asText().equals(logicalId)) {
                return role;
            }
        }
        return null;
    }

    @Test
    void jsonListsEveryCreatedRoleWithItsResolvedPolicies() {
        CliTest.Result r = CliTest.cli("iam", "--output", "json");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode report = Json.read(r.out());
        assertThat(report.get("account").asText()).isEqualTo("000000000000");
        assertThat(report.get("region").asText()).isEqualTo("us-east-1");
        assertThat(report.get("stack").asText()).isEqualTo("trainplane");
        List<String> ids = new ArrayList<>();
        report.get("roles").forEach(role -> ids.add(role.get("logicalId").asText()));
        assertThat(ids)
                .contains("ClusterWorkRole", "TrainingPipelineRole", "CleanupRole")
                .doesNotContain("StartScheduledRunRole");

        JsonNode work = role(report, "ClusterWorkRole");
        assertThat(work.get("arn").asText()).isEqualTo("arn:aws:iam::000000000000:role/trainplane-ClusterWorkRole");
        JsonNode runRecord = work.get("policies").get(0);
        assertThat(runRecord.get("name").asText()).isEqualTo("run-record");
        assertThat(runRecord.at("/document/Version").asText()).isEqualTo("2012-10-17");
        assertThat(runRecord.at("/document/Statement/1/Resource").asText())
                .isEqualTo("arn:aws:events:us-east-1:000000000000:event-bus/trainplane-trainplane");
        JsonNode basic = work.get("policies").get(1);
        assertThat(basic.get("managedPolicyArn").asText())
                .isEqualTo("arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole");
        assertThat(basic.at("/document/Statement/0/Action/0").asText()).isEqualTo("logs:CreateLogGroup");
        JsonNode eks = role(report, "EksClusterRole").get("policies").get(0);
        assertThat(eks.get("known").asBoolean()).isFalse();
        assertThat(eks.get("document").isNull()).isTrue();
    }

    @Test
    void parametersChangeTheRolesAndTheirPolicies() {
        CliTest.Result r = CliTest.cli(
                "iam",
                "--output",
                "json",
                "--parameter",
                "RetrainingSchedule=rate(1 day)",
                "--parameter",
                "ExistingClusterNamePrefix=warm-");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode report = Json.read(r.out());
        assertThat(role(report, "StartScheduledRunRole")).isNotNull();
        assertThat(statement(role(report, "ClusterWorkRole").at("/policies/2/document"), "DescribeExistingClusters")
                        .path("Resource")
                        .asText())
                .isEqualTo("arn:aws:eks:us-east-1:000000000000:cluster/warm-*");
    }

    @Test
    void textNamesRolesPoliciesAndStatements() {
        CliTest.Result r = CliTest.cli("iam");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("ClusterWorkRole  arn:aws:iam::000000000000:role/trainplane-ClusterWorkRole")
                .contains(
                        "  trainplane-RunClustersPolicy (managed arn:aws:iam::000000000000:policy/trainplane-RunClustersPolicy)")
                .contains("ClusterWorkRole/trainplane-RunClustersPolicy/CreateTaggedClusters: Allow eks:CreateCluster")
                .containsPattern(
                        "  IAM quotas: inline policies [0-9,]+ of 10,240 characters; trainplane-RunClustersPolicy"
                                + " [0-9,]+ of 6,144 characters;")
                .contains("aws:RequestTag/trainplane:stack")
                .contains("CleanupRole/CleanupRolePolicy1/0: Allow lambda:InvokeFunction")
                .contains("not known to the simulation");
    }

    @Test
    void aBadParameterIsInvalidInputNamingIt() {
        CliTest.Result r = CliTest.cli("iam", "--parameter", "LogRetentionDays=2");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err())
                .contains("LogRetentionDays")
                .contains("AllowedValues")
                .doesNotContain("Exception");
        assertThat(r.out()).isEmpty();
        assertThat(CliTest.cli("iam", "--parameter", "Unknown=1").err()).contains("no parameter Unknown");
    }

    static JsonNode statement(JsonNode document, String sid) {
        for (JsonNode statement : document.path("Statement")) {
            if (sid.equals(statement.path("Sid").asText())) {
                return statement;
            }
        }
        throw new AssertionError("no statement " + sid + " in " + document);
    }
}
