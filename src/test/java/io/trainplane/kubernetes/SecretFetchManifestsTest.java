package io.trainplane.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.RunSpecs;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A command's secrets by reference in its pod: fetch-secrets after the other init containers, as
 * the run's identity, into a memory-backed volume the workload mounts read-only, and the command
 * under the shell that exports them; only the references in the objects. A command without secrets
 * has none of it.
 */
class SecretFetchManifestsTest {
    static final String ARN = "arn:aws:secretsmanager:us-east-1:123456789012:secret:trainplane/hf-token-AbCdEf";
    static final String PARAMETER = "arn:aws:ssm:us-east-1:123456789012:parameter/trainplane/db";

    static RunSpec spec(String launcher) {
        return RunSpecs.parse(
                """
                {"runId": "mine", "cluster": {"mode": "existing", "name": "warm"},
                 "training": {"launcher": "%s", "workers": 2},
                 "workload": {"image": "ghcr.io/me/t:1", "code": "s3://my-bucket/code/", "launcher": "none",
                   "commands": {"train": {"args": ["python", "train.py"],
                                          "env": {"PLAIN": "1", "HF_TOKEN": {"secretArn": "%s"},
                                                  "DB_PASSWORD": {"ssmParameter": "%s"}}},
                                "evaluate": {"args": ["python", "eval.py"]}}}}"""
                        .formatted(launcher, ARN, PARAMETER));
    }

    @Test
    void theTrainingPodReadsItsSecretsIntoMemoryAndItsCommandExportsThem() {
        WorkloadManifests manifests = new WorkloadManifests(spec("indexed-job"));
        PodSpec pod = manifests.trainingJob().getSpec().getTemplate().getSpec();
        assertSecrets(pod, "trainer", List.of("python", "train.py"));

        // The evaluation's command has no secrets: none of it there.
        PodSpec evaluation = manifests.evaluationJob().getSpec().getTemplate().getSpec();
        assertThat(evaluation.getInitContainers())
                .extracting(Container::getName)
                .doesNotContain(SecretFetch.CONTAINER);
        assertThat(evaluation.getVolumes()).noneMatch(v -> v.getName().equals(SecretFetch.VOLUME));
        assertThat(evaluation.getContainers().getFirst().getCommand()).containsExactly("python", "eval.py");
    }

    @Test
    void aPyTorchJobsReplicasReadThemToo() {
        var job = new WorkloadManifests(spec("pytorchjob")).pyTorchJob();
        PodSpec pod = job.getSpec()
                .getPytorchReplicaSpecs()
                .get("Master")
                .getTemplate()
                .getSpec();
        assertThat(SecretFetch.unwrap(pod.getContainers().getFirst().getCommand()))
                .hasValueSatisfying(c -> assertThat(TermExit.unwrap(c)).isPresent());
        assertThat(pod.getInitContainers()).extracting(Container::getName).contains(SecretFetch.CONTAINER);
    }

    private static void assertSecrets(PodSpec pod, String container, List<String> command) {
        assertThat(pod.getInitContainers())
                .extracting(Container::getName)
                .containsSubsequence(WorkloadManifests.FETCH_CODE, SecretFetch.CONTAINER);
        assertThat(pod.getServiceAccountName()).isEqualTo(io.trainplane.aws.eks.PodIdentity.RUN_SERVICE_ACCOUNT);
        Container fetch = pod.getInitContainers().stream()
                .filter(c -> c.getName().equals(SecretFetch.CONTAINER))
                .findFirst()
                .orElseThrow();
        assertThat(fetch.getImage()).isEqualTo(WorkloadManifests.AWS_CLI_IMAGE);
        String script = fetch.getCommand().get(2);
        assertThat(script)
                .contains("aws secretsmanager get-secret-value --region us-east-1 --secret-id \"$SECRET_REF_HF_TOKEN\"")
                .contains(
                        "aws ssm get-parameter --region us-east-1 --with-decryption --name \"$SECRET_REF_DB_PASSWORD\"")
                .contains("> " + SecretFetch.DIR + "/HF_TOKEN")
                .doesNotContain("set -x");
        assertThat(fetch.getEnv())
                .extracting(e -> e.getName() + "=" + e.getValue())
                .containsExactly("SECRET_REF_HF_TOKEN=" + ARN, "SECRET_REF_DB_PASSWORD=" + PARAMETER);
        assertThat(fetch.getVolumeMounts()).singleElement().satisfies(m -> assertThat(m.getMountPath())
                .isEqualTo(SecretFetch.DIR));

        assertThat(pod.getVolumes())
                .filteredOn(v -> v.getName().equals(SecretFetch.VOLUME))
                .singleElement()
                .satisfies(v -> assertThat(v.getEmptyDir().getMedium()).isEqualTo("Memory"));

        Container workload = pod.getContainers().getFirst();
        assertThat(workload.getName()).isEqualTo(container);
        assertThat(SecretFetch.unwrap(workload.getCommand())).contains(command);
        assertThat(workload.getVolumeMounts())
                .filteredOn(m -> m.getName().equals(SecretFetch.VOLUME))
                .singleElement()
                .satisfies(m -> assertThat(m.getReadOnly()).isTrue());
        // The plain variable is the container's; the secrets are not, by value nor by reference.
        assertThat(workload.getEnv())
                .extracting(e -> e.getName())
                .contains("PLAIN")
                .doesNotContain("HF_TOKEN", "DB_PASSWORD");
        assertThat(workload.getEnv())
                .allSatisfy(e -> assertThat(e.getValueFrom()).isNull());
    }
}
