package io.trainplane.spec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code commands.*.env} values given by reference: the shapes the schema takes and refuses (with
 * the field and the fix), the round trip through the normalized spec, and mpijob's refusal.
 */
class SecretRefSpecTest {
    static final String HF_ARN = "arn:aws:secretsmanager:us-east-1:123456789012:secret:trainplane/hf-token-AbCdEf";

    static String spec(String launcher, String env) {
        return """
                {"cluster": {"mode": "existing", "name": "ml-training"},
                 "training": {"launcher": "%s"},
                 "workload": {"image": "ghcr.io/me/t:1", "code": "image",
                              "commands": {"train": {"args": ["python", "t.py"], "env": %s}}}}
                """
                .formatted(launcher, env);
    }

    @Test
    void aSecretArnAndAnSsmParameterByNameOrArnAreReferencesThatRoundTripAsReferences() {
        String env =
                """
                {"PLAIN": "1",
                 "HF_TOKEN": {"secretArn": "%s"},
                 "DB": {"ssmParameter": "/trainplane/db"},
                 "WANDB": {"ssmParameter": "arn:aws:ssm:us-east-1:123456789012:parameter/trainplane/wandb"}}
                """
                        .formatted(HF_ARN);
        RunSpec spec = RunSpecs.parse(spec("indexed-job", env));
        WorkloadCommand train = spec.workload().train();
        assertThat(train.env()).containsOnlyKeys("PLAIN");
        assertThat(train.secrets())
                .containsEntry("HF_TOKEN", new SecretRef.SecretsManager(HF_ARN))
                .containsEntry("DB", new SecretRef.SsmParameter("/trainplane/db"));
        assertThat(train.secrets().get("HF_TOKEN").resourceName()).isEqualTo("trainplane/hf-token-AbCdEf");
        assertThat(train.secrets().get("DB").resourceName()).isEqualTo("trainplane/db");
        assertThat(train.secrets().get("WANDB").resourceName()).isEqualTo("trainplane/wandb");
        assertThat(train.secrets().get("WANDB").region()).contains("us-east-1");

        ObjectNode normalized = spec.toJson();
        assertThat(normalized.at("/workload/commands/train/env/HF_TOKEN"))
                .isEqualTo(Json.read("{\"secretArn\": \"" + HF_ARN + "\"}"));
        assertThat(RunSpecs.parse(normalized)).isEqualTo(spec);
        assertThat(RunSpecs.fromNormalized(normalized)).isEqualTo(spec);
        assertThat(RunSpecs.normalize(Json.write(normalized))).isEqualTo(normalized);
    }

    @Test
    void aMalformedReferenceIsRefusedWithItsFieldAndAnExample() {
        List<SpecProblem> wrongService = RunSpecs.problems(
                spec("indexed-job", "{\"T\": {\"secretArn\": \"arn:aws:ssm:us-east-1:123456789012:parameter/x\"}}"));
        assertThat(wrongService).singleElement().satisfies(p -> {
            assertThat(p.pointer()).isEqualTo("/workload/commands/train/env/T/secretArn");
            assertThat(p.message()).contains("a Secrets Manager secret's ARN");
            assertThat(p.hint()).contains("arn:aws:secretsmanager:us-east-1:123456789012:secret:trainplane/hf-token");
        });
        assertThat(RunSpecs.problems(spec("indexed-job", "{\"T\": {\"ssmParameter\": \"has space\"}}")))
                .singleElement()
                .satisfies(p -> assertThat(p.pointer()).isEqualTo("/workload/commands/train/env/T/ssmParameter"));
        assertThat(RunSpecs.problems(spec("indexed-job", "{\"T\": {\"secretName\": \"x\"}}")))
                .isNotEmpty()
                .allSatisfy(p -> assertThat(p.pointer()).startsWith("/workload/commands/train/env/T"));
        assertThat(RunSpecs.problems(spec("indexed-job", "{\"T\": {}}")))
                .isNotEmpty()
                .allSatisfy(p -> assertThat(p.pointer()).startsWith("/workload/commands/train/env/T"));
        assertThat(RunSpecs.problems(spec(
                        "indexed-job",
                        "{\"T\": {\"secretArn\": \"" + HF_ARN + "\", \"ssmParameter\": \"/trainplane/x\"}}")))
                .isNotEmpty();
        assertThat(RunSpecs.problems(spec("indexed-job", "{\"T\": 3}")))
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.pointer()).isEqualTo("/workload/commands/train/env/T");
                    assertThat(p.message()).isEqualTo("must be a string or an object, not an integer");
                });
        assertThat(RunSpecs.problems(spec("indexed-job", "{\"TRAINPLANE_X\": {\"secretArn\": \"" + HF_ARN + "\"}}")))
                .singleElement()
                .satisfies(p -> assertThat(p.message()).contains("Trainplane's own"));
    }

    @Test
    void anMpiJobsTrainingCannotTakeASecretBecauseItsProcessesStartOverSsh() {
        assertThat(RunSpecs.problems(spec("mpijob", "{\"HF_TOKEN\": {\"secretArn\": \"" + HF_ARN + "\"}}")))
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.pointer()).isEqualTo("/workload/commands/train/env/HF_TOKEN");
                    assertThat(p.message()).contains("mpijob", "ssh");
                    assertThat(p.hint()).contains("indexed-job");
                });
        assertThat(RunSpecs.problems(spec("mpijob", "{\"PLAIN\": \"1\"}"))).isEmpty();
    }
}
