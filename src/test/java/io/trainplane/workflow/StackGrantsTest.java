package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.aws.Settings;
import io.trainplane.spec.RunSpecs;
import io.trainplane.spec.SpecProblem;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What StartRun refuses because the stack's parameters do not grant it, before anything is created. */
class StackGrantsTest {
    static Settings stack(String existingPrefix, String lustreBuckets) {
        return Settings.fromMap(Map.of(
                "STACK_NAME", "trainplane",
                "RUNS_TABLE", "runs",
                "CLUSTER_SUBNET_IDS", "subnet-1,subnet-2",
                "EXISTING_CLUSTER_NAME_PREFIX", existingPrefix,
                "LUSTRE_DATA_BUCKETS", lustreBuckets));
    }

    static String existing(String name) {
        return "{\"cluster\": {\"mode\": \"existing\", \"name\": \"" + name + "\"}}";
    }

    @Test
    void anotherRunsClusterIsNeverUsedAsAnExistingOne() {
        assertThat(StackGrants.problems(RunSpecs.parse(existing("tp-nightly-eks")), "r1", stack("", "")))
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.pointer()).isEqualTo("/cluster/name");
                    assertThat(p.message()).contains("belongs to another run");
                });
    }

    static String lustre(String importPath, String exportPath) {
        return "{\"cluster\": {\"mode\": \"create\", \"nodeGroup\": {\"instanceType\": \"g5.xlarge\", \"nodes\": 2, \"gpusPerNode\": 1}}, \"volume\": {\"type\": \"fsx-lustre\","
                + " \"s3ImportPath\": \"" + importPath + "\","
                + " \"s3ExportPath\": \"" + exportPath + "\"}}";
    }

    @Test
    void aLustreVolumeExportsOnlyUnderItsRunsPrefixAndImportsNoOtherRunsData() {
        Settings linked = stack("", "data");
        assertThat(StackGrants.problems(
                        RunSpecs.parse(lustre("s3://data/inputs/cifar/", "s3://data/runs/tp-r1/export/")),
                        "r1",
                        linked))
                .isEmpty();
        assertThat(StackGrants.problems(
                        RunSpecs.parse(lustre("s3://data/runs/tp-r2/model/", "s3://data/inputs/cifar/")), "r1", linked))
                .extracting(SpecProblem::pointer)
                .containsExactly("/volume/s3ExportPath", "/volume/s3ImportPath");
        assertThat(StackGrants.problems(
                        RunSpecs.parse(lustre("s3://data/inputs/", "s3://data/runs/tp-r10/")), "r1", linked))
                .singleElement()
                .satisfies(p -> assertThat(p.message()).contains("outside the run's own prefix runs/tp-r1/"))
                .satisfies(p -> assertThat(p.hint()).contains("s3://data/runs/tp-r1/"));
    }

    @Test
    void anExistingClusterOutsideTheStacksPrefixIsRefusedNamingTheParameter() {
        assertThat(StackGrants.problems(RunSpecs.parse(existing("prod-cluster")), "r1", stack("ml-", "")))
                .extracting(SpecProblem::message)
                .singleElement()
                .asString()
                .contains("does not start with 'ml-', the stack's ExistingClusterNamePrefix");
        assertThat(StackGrants.problems(RunSpecs.parse(existing("ml-shared")), "r1", stack("ml-", "")))
                .isEmpty();
        assertThat(StackGrants.problems(RunSpecs.parse(existing("anything")), "r1", stack("", "")))
                .isEmpty();
    }

    static String withSecret(String ref) {
        return "{\"cluster\": {\"mode\": \"existing\", \"name\": \"ml\"}, \"workload\": {\"image\": \"ghcr.io/me/t:1\","
                + " \"code\": \"image\", \"commands\": {\"train\": {\"args\": [\"python\", \"t.py\"],"
                + " \"env\": {\"HF_TOKEN\": " + ref + "}}}}}";
    }

    @Test
    void aSecretByReferenceIsOneRunSecretsPrefixLetsThePodsRead() {
        Settings stack = Settings.fromMap(Map.of(
                "STACK_NAME", "trainplane",
                "RUNS_TABLE", "runs",
                "CLUSTER_SUBNET_IDS", "subnet-1,subnet-2",
                "AWS_REGION", "us-east-1",
                "RUN_OUTPUTS_ROLE_ARN", "arn:aws:iam::123456789012:role/trainplane-RunOutputsRole",
                "RUN_SECRETS_PREFIX", "ml/"));
        String inside = "arn:aws:secretsmanager:us-east-1:123456789012:secret:ml/hf-token-AbCdEf";
        assertThat(StackGrants.problems(RunSpecs.parse(withSecret("{\"secretArn\": \"" + inside + "\"}")), "r1", stack))
                .isEmpty();
        assertThat(StackGrants.problems(RunSpecs.parse(withSecret("{\"ssmParameter\": \"/ml/db\"}")), "r1", stack))
                .isEmpty();
        assertThat(StackGrants.problems(
                        RunSpecs.parse(withSecret("{\"secretArn\": \"" + inside.replace("ml/", "other/") + "\"}")),
                        "r1",
                        stack))
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.pointer()).isEqualTo("/workload/commands/train/env/HF_TOKEN");
                    assertThat(p.message()).contains("'other/hf-token-AbCdEf'", "RunSecretsPrefix 'ml/'");
                    assertThat(p.hint()).contains("RunSecretsPrefix");
                });
        assertThat(StackGrants.problems(RunSpecs.parse(withSecret("{\"ssmParameter\": \"/other/db\"}")), "r1", stack))
                .singleElement()
                .satisfies(p -> assertThat(p.message()).contains("SSM parameter 'other/db'"));
        assertThat(StackGrants.problems(
                        RunSpecs.parse(
                                withSecret("{\"secretArn\": \"" + inside.replace("us-east-1", "eu-west-1") + "\"}")),
                        "r1",
                        stack))
                .singleElement()
                .satisfies(p -> assertThat(p.message()).contains("eu-west-1", "Region us-east-1"));
        assertThat(StackGrants.problems(
                        RunSpecs.parse(withSecret(
                                "{\"secretArn\": \"" + inside.replace("123456789012", "210987654321") + "\"}")),
                        "r1",
                        stack))
                .singleElement()
                .satisfies(p -> assertThat(p.message()).contains("account 210987654321"));
    }

    @Test
    void startRunGivesAnSsmParameterNamedAloneItsArnInTheStacksRegionAndAccount() {
        Settings stack = Settings.fromMap(Map.of(
                "STACK_NAME", "trainplane",
                "RUNS_TABLE", "runs",
                "CLUSTER_SUBNET_IDS", "subnet-1,subnet-2",
                "AWS_REGION", "eu-west-1",
                "RUN_OUTPUTS_ROLE_ARN", "arn:aws:iam::123456789012:role/trainplane-RunOutputsRole"));
        var spec = RunSpecs.parse(withSecret("{\"ssmParameter\": \"/trainplane/db\"}"))
                .toJson();
        assertThat(SecretParameters.qualify(spec, stack)
                        .at("/workload/commands/train/env/HF_TOKEN/ssmParameter")
                        .asText())
                .isEqualTo("arn:aws:ssm:eu-west-1:123456789012:parameter/trainplane/db");
        assertThat(stack.runSecretsPrefix()).isEqualTo(Settings.DEFAULT_RUN_SECRETS_PREFIX);
    }
}
