package io.trainplane.local.iam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** template.yaml resolved for the local account. */
class StackTemplateTest {
    static final StackTemplate LOCAL = StackTemplate.local();

    static JsonNode document(Role role, String policy) {
        return role.policies().stream()
                .filter(p -> p.name().equals(policy))
                .findFirst()
                .orElseThrow()
                .document();
    }

    @Test
    void theArtifactsBucketIsNamedAsCloudFormationNamesBucketsAndTheFunctionsAreToldItAndThePodsRole() {
        assertThat(LOCAL.buckets()).containsOnlyKeys("ArtifactsBucket");
        assertThat(LOCAL.functions().get("ConfigureClusterFunction").environment())
                .containsEntry("ARTIFACTS_BUCKET", "trainplane-artifactsbucket")
                .containsEntry("RUN_OUTPUTS_ROLE_ARN", "arn:aws:iam::000000000000:role/trainplane-RunOutputsRole");
    }

    @Test
    void theRolesOfTheTemplateAndThoseSamGeneratesAreThereWithTheirArns() {
        assertThat(LOCAL.roles().keySet())
                .containsExactly(
                        "RunRecordRole",
                        "StartRunRole",
                        "EksClusterRole",
                        "EksNodeRole",
                        "EfsCsiDriverRole",
                        "FsxCsiDriverRole",
                        "RunOutputsRole",
                        "ClusterWorkRole",
                        "TrainingPipelineRole",
                        "CleanupRole",
                        "SafetyNetRole",
                        "JanitorRole");
        Role work = LOCAL.roles().get("ClusterWorkRole");
        assertThat(work.name()).isEqualTo("trainplane-ClusterWorkRole");
        assertThat(work.arn()).isEqualTo("arn:aws:iam::000000000000:role/trainplane-ClusterWorkRole");
        assertThat(work.policies())
                .extracting(RolePolicy::name)
                .containsExactly(
                        "run-record",
                        "AWSLambdaBasicExecutionRole",
                        "trainplane-RunClustersPolicy",
                        "trainplane-RunVolumesPolicy",
                        "trainplane-RunCloudControlPolicy");
    }

    @Test
    void inlinePoliciesAreResolvedWithTheirAnchorsAndArns() {
        JsonNode runRecord = document(LOCAL.roles().get("RunRecordRole"), "run-record");
        assertThat(runRecord.at("/Statement/0/Resource/0").asText())
                .isEqualTo("arn:aws:dynamodb:us-east-1:000000000000:table/trainplane-RunsTable");
        assertThat(runRecord.at("/Statement/0/Resource/1").asText())
                .isEqualTo("arn:aws:dynamodb:us-east-1:000000000000:table/trainplane-RunsTable/index/byStatus");
        assertThat(runRecord.at("/Statement/1/Resource").asText())
                .isEqualTo("arn:aws:events:us-east-1:000000000000:event-bus/trainplane-trainplane");
        // The YAML alias *runRecordPolicy: the same document in the second role.
        assertThat(document(LOCAL.roles().get("ClusterWorkRole"), "run-record")).isEqualTo(runRecord);

        JsonNode infrastructure = document(LOCAL.roles().get("ClusterWorkRole"), "trainplane-RunClustersPolicy");
        assertThat(statement(infrastructure, "DescribeExistingClusters")
                        .path("Resource")
                        .asText())
                .isEqualTo("arn:aws:eks:us-east-1:000000000000:cluster/*");
        assertThat(statement(infrastructure, "PassRunRoles").at("/Resource/1").asText())
                .isEqualTo("arn:aws:iam::000000000000:role/trainplane-EksNodeRole");
        assertThat(document(LOCAL.roles().get("SafetyNetRole"), "start-cleanup")
                        .at("/Statement/1/Resource")
                        .asText())
                .isEqualTo("arn:aws:states:us-east-1:000000000000:stateMachine:trainplane-Cleanup");
    }

    /**
     * The FSx CSI driver mounts static volumes only: the role grants the one call its controller
     * makes for them, not AmazonFSxFullAccess (create and delete any file system in the account).
     */
    @Test
    void theFsxCsiDriverMayOnlyDescribeFileSystems() {
        assertThat(LOCAL.roles().get("FsxCsiDriverRole").statements())
                .singleElement()
                .satisfies(s -> assertThat(s.actions()).containsExactly("fsx:DescribeFileSystems"))
                .satisfies(s -> assertThat(s.resources()).containsExactly("*"));
    }

    @Test
    void statementsHaveStableIdsFromRolePolicyAndSidOrIndex() {
        assertThat(LOCAL.roles().get("ClusterWorkRole").statements())
                .extracting(PolicyStatement::id)
                .contains(
                        "ClusterWorkRole/run-record/0",
                        "ClusterWorkRole/run-record/1",
                        "ClusterWorkRole/trainplane-RunClustersPolicy/DescribeExistingClusters",
                        "ClusterWorkRole/AWSLambdaBasicExecutionRole/0");
        assertThat(LOCAL.policies().statementIds()).doesNotHaveDuplicates();
    }

    @Test
    void samGeneratesTheStateMachineRolesWithLambdaInvokePolicyExpanded() {
        Role cleanup = LOCAL.roles().get("CleanupRole");
        assertThat(cleanup.arn()).isEqualTo("arn:aws:iam::000000000000:role/trainplane-CleanupRole");
        assertThat(cleanup.policies())
                .extracting(RolePolicy::name)
                .containsExactly(
                        "CleanupRolePolicy0", "CleanupRolePolicy1", "CleanupRolePolicy2", "CleanupRolePolicy3");
        JsonNode invoke = document(cleanup, "CleanupRolePolicy1");
        assertThat(invoke.has("Version"))
                .as("SAM writes the template's Statement only")
                .isFalse();
        assertThat(invoke.at("/Statement/0/Action/0").asText()).isEqualTo("lambda:InvokeFunction");
        assertThat(invoke.at("/Statement/0/Resource").asText())
                .isEqualTo("arn:aws:lambda:us-east-1:000000000000:function:trainplane-TeardownFunction*");
        // The log delivery policy, and one LambdaInvokePolicy per function the pipeline invokes.
        assertThat(LOCAL.roles().get("TrainingPipelineRole").policies())
                .hasSize(1 + pipelineFunctions().size());
        assertThat(LOCAL.stateMachines().get("Cleanup").roleLogicalId()).isEqualTo("CleanupRole");
    }

    @Test
    void functionsHaveTheirNamesAliasesRolesAndResolvedEnvironment() {
        StackFunction startRun = LOCAL.functions().get("StartRunFunction");
        assertThat(startRun.name()).isEqualTo("trainplane-StartRunFunction");
        assertThat(startRun.arn())
                .isEqualTo("arn:aws:lambda:us-east-1:000000000000:function:trainplane-StartRunFunction");
        assertThat(startRun.aliasArn()).isEqualTo(startRun.arn() + ":live");
        assertThat(startRun.roleLogicalId()).isEqualTo("StartRunRole");
        assertThat(startRun.environment())
                .containsEntry("RUNS_TABLE", "trainplane-RunsTable")
                .containsEntry("EVENT_BUS_NAME", "trainplane-trainplane")
                .containsEntry("CLUSTER_SUBNET_IDS", "subnet-0a1b2c3d4e5f60001,subnet-0a1b2c3d4e5f60002")
                .containsEntry("CLUSTER_ROLE_ARN", "arn:aws:iam::000000000000:role/trainplane-EksClusterRole")
                .containsEntry("PENDING_TIMEOUT_MINUTES", "15")
                .doesNotContainKey("CLUSTER_SECURITY_GROUP_IDS");
        assertThat(LOCAL.functions().get("JanitorFunction").environment())
                .containsEntry(
                        "CLEANUP_STATE_MACHINE_ARN",
                        "arn:aws:states:us-east-1:000000000000:stateMachine:trainplane-Cleanup")
                .containsKey("RUNS_TABLE");
        assertThat(LOCAL.functions()).doesNotContainKey("StartScheduledRunFunction");
    }

    @Test
    void stateMachinesHaveTheirArnsAndSubstitutions() {
        StackStateMachine pipeline = LOCAL.stateMachines().get("TrainingPipeline");
        assertThat(pipeline.arn())
                .isEqualTo("arn:aws:states:us-east-1:000000000000:stateMachine:trainplane-TrainingPipeline");
        assertThat(pipeline.definitionUri()).isEqualTo("statemachines/training-pipeline.asl.json");
        assertThat(pipeline.substitutions().keySet()).containsExactlyInAnyOrderElementsOf(pipelineFunctions());
        assertThat(pipeline.substitutions())
                .containsEntry(
                        "TeardownFunctionArn",
                        "arn:aws:lambda:us-east-1:000000000000:function:trainplane-TeardownFunction:live");
    }

    @Test
    void parametersChangeTheResolvedResourcesAndConditions() {
        StackTemplate prefixed = StackTemplate.local(Map.of(
                "ExistingClusterNamePrefix",
                "team-a-",
                "ClusterSecurityGroupIds",
                "sg-1,sg-2",
                "RetrainingSchedule",
                "rate(1 day)"));
        assertThat(statement(
                                document(prefixed.roles().get("ClusterWorkRole"), "trainplane-RunClustersPolicy"),
                                "DescribeExistingClusters")
                        .path("Resource")
                        .asText())
                .isEqualTo("arn:aws:eks:us-east-1:000000000000:cluster/team-a-*");
        assertThat(prefixed.functions().get("CreateClusterFunction").environment())
                .containsEntry("CLUSTER_SECURITY_GROUP_IDS", "sg-1,sg-2");
        assertThat(prefixed.roles()).containsKeys("StartScheduledRunRole", "RetrainingSchedulerRole");
        assertThat(document(prefixed.roles().get("RetrainingSchedulerRole"), "invoke-start-scheduled-run")
                        .at("/Statement/0/Resource/1")
                        .asText())
                .isEqualTo("arn:aws:lambda:us-east-1:000000000000:function:trainplane-StartScheduledRunFunction:*");
        assertThat(prefixed.functions().get("StartScheduledRunFunction").environment())
                .containsEntry(
                        "TRAINING_PIPELINE_ARN",
                        "arn:aws:states:us-east-1:000000000000:stateMachine:trainplane-TrainingPipeline");
    }

    @Test
    void badParametersAreRefusedNamingTheParameter() {
        assertThatThrownBy(() -> StackTemplate.local(Map.of("ExistingClusterNamePrefix", "no spaces")))
                .isInstanceOf(TemplateException.class)
                .hasMessageContaining("ExistingClusterNamePrefix")
                .hasMessageContaining("AllowedPattern");
        assertThatThrownBy(() -> StackTemplate.local(Map.of("LogRetentionDays", "2")))
                .hasMessageContaining("LogRetentionDays")
                .hasMessageContaining("AllowedValues");
        assertThatThrownBy(() -> StackTemplate.local(Map.of("Nope", "x"))).hasMessageContaining("no parameter Nope");
        assertThatThrownBy(() -> StackTemplate.parse(
                        ShippedData.text("template.yaml"), "template.yaml", LocalAccount.LOCAL, Map.of()))
                .hasMessageContaining("SubnetIds has no Default");
    }

    static StackTemplate template(String resources) {
        return StackTemplate.parse(
                """
                Parameters:
                  Flag: {Type: String, Default: 'no'}
                Conditions:
                  On: !Equals [!Ref Flag, 'yes']
                Resources:
                """
                        + resources,
                "test.yaml",
                LocalAccount.LOCAL,
                Map.of());
    }

    @Test
    void unknownIntrinsicsAreRefusedInShortAndLongForm() {
        assertThatThrownBy(() -> template("  R: {Type: AWS::IAM::Role, Properties: {RoleName: !ImportValue x}}\n"))
                .isInstanceOf(TemplateException.class)
                .hasMessageContaining("!ImportValue")
                .hasMessageContaining("line 6");
        assertThatThrownBy(() ->
                        template("  R: {Type: AWS::IAM::Role, Properties: {RoleName: {'Fn::FindInMap': [a, b, c]}}}\n"))
                .isInstanceOf(TemplateException.class)
                .hasMessageContaining("Fn::FindInMap")
                .hasMessageContaining("Resources.R.Properties.RoleName");
    }

    @Test
    void explicitNamesSubAndConditionsResolve() {
        StackTemplate t = template(
                """
                  R:
                    Type: AWS::IAM::Role
                    Properties:
                      RoleName: !Sub '${AWS::StackName}-${!Literal}-x'
                      Path: /svc/
                      Policies:
                        - PolicyName: p
                          PolicyDocument:
                            Statement:
                              - Effect: Allow
                                Action: s3:GetObject
                                Resource: !If [On, !Sub 'arn:aws:s3:::${Flag}/*', !Select [1, !Split [',', 'a,arn:aws:s3:::b']]]
                  Hidden:
                    Type: AWS::IAM::Role
                    Condition: On
                    Properties: {}
                """);
        Role r = t.roles().get("R");
        assertThat(r.name()).isEqualTo("trainplane-${Literal}-x");
        assertThat(r.arn()).isEqualTo("arn:aws:iam::000000000000:role/svc/trainplane-${Literal}-x");
        assertThat(document(r, "p").at("/Statement/0/Resource").asText()).isEqualTo("arn:aws:s3:::b");
        assertThat(t.roles()).doesNotContainKey("Hidden");
        assertThat(t.exists("Hidden")).isFalse();
    }

    @Test
    void aRoleWithAnUnknownManagedPolicyCannotBeEvaluated() {
        Role eks = LOCAL.roles().get("EksClusterRole");
        assertThat(eks.policies()).singleElement().satisfies(p -> {
            assertThat(p.known()).isFalse();
            assertThat(p.managedArn()).isEqualTo("arn:aws:iam::aws:policy/AmazonEKSClusterPolicy");
        });
        assertThatThrownBy(() -> eks.evaluate(IamRequest.of("eks:DescribeCluster", "*")))
                .isInstanceOf(UnknownPolicyException.class)
                .hasMessageContaining(
                        "policy arn:aws:iam::aws:policy/AmazonEKSClusterPolicy of role EksClusterRole is not known to the simulation");
    }

    @Test
    void removingAStatementLeavesTheOthers() {
        StackPolicies policies = LOCAL.policies();
        String id = "ClusterWorkRole/trainplane-RunClustersPolicy/DescribeExistingClusters";
        IamRequest describe =
                IamRequest.of("eks:DescribeCluster", "arn:aws:eks:us-east-1:000000000000:cluster/team-cluster");
        assertThat(policies.evaluate("ClusterWorkRole", describe)).isEqualTo(new Evaluation(Decision.Allowed, id));
        StackPolicies without = policies.without(id);
        assertThat(without.evaluate("ClusterWorkRole", describe).decision()).isEqualTo(Decision.ImplicitlyDenied);
        assertThat(without.statementIds())
                .hasSize(policies.statementIds().size() - 1)
                .doesNotContain(id);
        assertThat(document(without.role("ClusterWorkRole"), "trainplane-RunClustersPolicy")
                        .get("Statement")
                        .toString())
                .doesNotContain("DescribeExistingClusters");
        assertThat(policies.evaluate("ClusterWorkRole", describe).decision())
                .as("the original is unchanged")
                .isEqualTo(Decision.Allowed);
        assertThatThrownBy(() -> policies.without("ClusterWorkRole/nope/0")).hasMessageContaining("no statement");
    }

    /** The statement of {@code document} with this Sid. */
    static JsonNode statement(JsonNode document, String sid) {
        for (JsonNode statement : document.path("Statement")) {
            if (sid.equals(statement.path("Sid").asText())) {
                return statement;
            }
        }
        throw new AssertionError("no statement " + sid + " in " + document);
    }

    /** The ${NameFunctionArn} placeholders of the pipeline's definition: the functions it invokes. */
    static java.util.Set<String> pipelineFunctions() {
        try {
            var m = java.util.regex.Pattern.compile("\\$\\{(\\w+FunctionArn)}")
                    .matcher(java.nio.file.Files.readString(
                            java.nio.file.Path.of("statemachines/training-pipeline.asl.json")));
            java.util.Set<String> names = new java.util.TreeSet<>();
            while (m.find()) {
                names.add(m.group(1));
            }
            return names;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
