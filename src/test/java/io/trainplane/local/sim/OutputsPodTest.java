package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.trainplane.TestTime;
import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.local.LocalCloud;
import io.trainplane.local.iam.StackTemplate;
import io.trainplane.spec.OutputSpec;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.RunSpecs;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The simulated outputs pod writes to S3 only with the credentials of its Pod Identity association. */
class OutputsPodTest {
    static final RunSpec SPEC = RunSpecs.parse(
                    "{\"runId\": \"r1\", \"cluster\": {\"mode\": \"existing\", \"name\": \"c\"}}")
            .withOutput(OutputSpec.defaultFor("trainplane-artifactsbucket", "r1"));

    static Pod podOf(Job job) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(job.getMetadata().getName() + "-x1")
                .withNamespace(job.getMetadata().getNamespace())
                .withUid("uid-1")
                .endMetadata()
                .withSpec(job.getSpec().getTemplate().getSpec())
                .build();
    }

    @Test
    void withoutAnAssociationThePodHasNoCredentialsAndFailsWithTheClisMessage() {
        try (LocalCloud cloud = new LocalCloud(TestTime.START);
                SimulatedKubernetes kubernetes = new SimulatedKubernetes()) {
            SimulatedWorkload workload =
                    new SimulatedWorkload().storingOutputsIn(new PodS3(cloud.s3(), cloud.eks(), StackTemplate.local()));
            Job job = new WorkloadManifests(SPEC).outputsJob();
            Job training = new WorkloadManifests(SPEC).trainingJob();
            kubernetes.admin().batch().v1().jobs().resource(training).create();
            assertThat(job.getSpec().getTemplate().getSpec().getServiceAccountName())
                    .isEqualTo("trainplane-run");

            assertThat(workload.poll(job, podOf(job), kubernetes.admin(), Duration.ofSeconds(1)))
                    .as("still copying")
                    .isEmpty();
            PodBehaviour.Outcome outcome = workload.poll(job, podOf(job), kubernetes.admin(), Duration.ofMinutes(1))
                    .orElseThrow();

            assertThat(outcome.exitCode()).isEqualTo(255);
            assertThat(outcome.terminationMessage()).isEqualTo(PodS3.NO_CREDENTIALS);
            assertThat(cloud.calls().counts()).doesNotContainKey("s3:PutObject");
        }
    }

    @Test
    void theJobCopiesWithTheAwsCliAsTheRunsServiceAccountAndReportsTheModelsDigest() {
        Job job = new WorkloadManifests(SPEC).outputsJob();
        var container = job.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(container.getImage())
                .startsWith("public.ecr.aws/aws-cli/aws-cli:")
                .doesNotEndWith(":latest");
        assertThat(container.getEnv())
                .anySatisfy(e -> assertThat(e.getValue()).isEqualTo("s3://trainplane-artifactsbucket/runs/tp-r1/"));
        assertThat(container.getCommand().get(2))
                .contains("aws s3 cp", "--checksum-algorithm SHA256", "sha256sum", "/dev/termination-log")
                .doesNotContain(
                        "sha256sum -c"); // the digest compared with the file's own, not with whatever file it names
    }
}
