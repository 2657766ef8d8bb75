package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import io.trainplane.local.iam.StackPrincipals;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A private ECR image pulls only if the node role may read it
 * (https://docs.aws.amazon.com/AmazonECR/latest/userguide/ECR_on_EKS.html): examples/custom-image.json's
 * image pulls under template.yaml's EksNodeRole (AmazonEC2ContainerRegistryReadOnly); without that
 * policy the kubelet's pull is refused, the pods wait in ErrImagePull / ImagePullBackOff, and the
 * run fails with the image-pull diagnosis.
 */
class PrivateEcrPullsTest {
    static final String ECR_READ_ONLY = "EksNodeRole/AmazonEC2ContainerRegistryReadOnly/0";

    @Test
    void theTemplatesNodeRolePullsTheExamplesEcrImage(@TempDir Path dir) throws Exception {
        ObjectNode example = (ObjectNode) Json.read(Files.readString(Path.of("examples/custom-image.json")));
        CodeRoutesTest.Ran ran = CodeRoutesTest.runLocally(dir.resolve("custom.json"), example, cloud -> {});
        assertThat(ran.report().status()).as("%s", ran.report().cause()).isEqualTo("SUCCEEDED");
    }

    /**
     * A node role that may read EKS's own registry (the add-ons' images) but not the account's
     * repositories: the training image's manifest is refused (403), the pod waits in ErrImagePull (then
     * ImagePullBackOff), and the run fails at once with the image-pull diagnosis naming the fix.
     */
    @Test
    void aNodeRoleWithoutReadOnYourRepositoryFailsTheRunWithTheImagePullDiagnosis(@TempDir Path dir) throws Exception {
        ObjectNode example = (ObjectNode) Json.read(Files.readString(Path.of("examples/custom-image.json")));
        example.put("runId", "no-ecr-read");
        JsonNode eksRegistryOnly = Json.read(
                """
                {"Version": "2012-10-17", "Statement": [
                  {"Effect": "Allow", "Action": "ecr:GetAuthorizationToken", "Resource": "*"},
                  {"Effect": "Allow", "Action": ["ecr:BatchGetImage", "ecr:GetDownloadUrlForLayer"],
                   "Resource": "arn:aws:ecr:*:602401143452:repository/*"}]}
                """);
        CodeRoutesTest.Ran ran = CodeRoutesTest.runLocally(dir.resolve("no-ecr.json"), example, cloud -> cloud.iam()
                .judgeBy(StackPrincipals.authorizer(cloud.stack()
                        .policies()
                        .without(ECR_READ_ONLY)
                        .withInlinePolicy("EksNodeRole", "EksRegistryOnly", eksRegistryOnly))));
        assertThat(ran.report().status()).isEqualTo("FAILED");
        String image = example.at("/workload/image").asText();
        assertThat(ran.report().error()).as("%s", ran.report().cause()).isEqualTo("ImagePullFailed");
        assertThat(ran.report().cause())
                .contains(
                        "the image " + image,
                        "cannot be pulled (ErrImagePull: rpc error",
                        "[manifests 1.0]: 403 Forbidden",
                        "their role needs ecr:GetAuthorizationToken, ecr:BatchGetImage and ecr:GetDownloadUrlForLayer",
                        "AmazonEC2ContainerRegistryReadOnly");
    }

    /**
     * Without any ECR read the nodes cannot pull EKS's own add-on images either (they are in EKS's
     * private registries): the add-ons never get their replicas and the run fails there, as on EKS.
     */
    @Test
    void aNodeRoleWithoutTheEcrPolicyCannotEvenRunTheAddOns(@TempDir Path dir) throws Exception {
        ObjectNode example = (ObjectNode) Json.read(Files.readString(Path.of("examples/custom-image.json")));
        example.put("runId", "no-ecr-at-all");
        CodeRoutesTest.Ran ran = CodeRoutesTest.runLocally(dir.resolve("no-ecr.json"), example, cloud -> cloud.iam()
                .judgeBy(StackPrincipals.authorizer(cloud.stack().policies().without(ECR_READ_ONLY))));
        assertThat(ran.report().status()).isEqualTo("FAILED");
        assertThat(ran.report().cause()).contains("add-on", "degraded");
    }
}
