package io.trainplane.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.bench.ColdStartBaselines.AwsCall;
import io.trainplane.bench.KubernetesRecorder.Request;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Java a function's own baseline is made of: each recorded call as plain SDK or fabric8 code. */
class ColdStartBaselinesTest {
    @TempDir
    Path dir;

    @Test
    void makesEachKubernetesRequestThroughFabric8sGenericResources() {
        assertThat(ColdStartBaselines.kubernetesCall(
                        request("GET", "/apis/batch/v1/namespaces/run-a/jobs/data", null, null)))
                .isEqualTo("kubernetes().genericKubernetesResources(resource(\"batch\", \"v1\", \"jobs\", true))"
                        + ".inNamespace(\"run-a\").withName(\"data\").get();");
        assertThat(ColdStartBaselines.kubernetesCall(
                        request("GET", "/api/v1/namespaces/run-a/pods", "labelSelector=job-name%3Ddata", null)))
                .isEqualTo("kubernetes().genericKubernetesResources(resource(\"\", \"v1\", \"pods\", true))"
                        + ".inNamespace(\"run-a\").withLabelSelector(\"job-name=data\").list();");
        assertThat(ColdStartBaselines.kubernetesCall(request("GET", "/api/v1/nodes", null, null)))
                .isEqualTo("kubernetes().genericKubernetesResources(resource(\"\", \"v1\", \"nodes\", false)).list();");
        assertThat(ColdStartBaselines.kubernetesCall(
                        request("POST", "/api/v1/namespaces", null, "{\"kind\":\"Namespace\"}")))
                .isEqualTo("kubernetes().genericKubernetesResources(resource(\"\", \"v1\", \"namespaces\", false))"
                        + ".resource(object(\"{\\\"kind\\\":\\\"Namespace\\\"}\")).create();");
        assertThat(ColdStartBaselines.kubernetesCall(new Request(
                        0,
                        "PATCH",
                        "/apis/kubeflow.org/v1/namespaces/run-a/pytorchjobs/train",
                        null,
                        "application/merge-patch+json",
                        "{}",
                        200,
                        "kubeflow.org/v1",
                        "PyTorchJob")))
                .contains(".withName(\"train\").patch(", "PatchType.JSON_MERGE");
        assertThat(ColdStartBaselines.kubernetesCall(
                        request("DELETE", "/api/v1/namespaces/run-a", null, "{\"propagationPolicy\":\"Background\"}")))
                .endsWith(
                        ".withName(\"run-a\").withPropagationPolicy(io.fabric8.kubernetes.api.model.DeletionPropagation.BACKGROUND).delete();");
        assertThat(ColdStartBaselines.kubernetesCall(request(
                        "GET", "/api/v1/namespaces/run-a/pods/eval-0/log", "container=main&tailLines=50", null)))
                .isEqualTo("kubernetes().pods().inNamespace(\"run-a\").withName(\"eval-0\").inContainer(\"main\")"
                        + ".tailingLines(50).getLog();");
    }

    @Test
    void aBuiltInKindGoesThroughItsTypedClassAndACustomResourceGenerically() {
        assertThat(ColdStartBaselines.kubernetesCall(new Request(
                        0, "GET", "/apis/batch/v1/namespaces/run-a/jobs/data", null, null, "", 200, "batch/v1", "Job")))
                .isEqualTo("kubernetes().resources(io.fabric8.kubernetes.api.model.batch.v1.Job.class)"
                        + ".inNamespace(\"run-a\").withName(\"data\").get();");
        assertThat(ColdStartBaselines.kubernetesCall(new Request(
                        0,
                        "POST",
                        "/api/v1/namespaces/run-a/configmaps",
                        null,
                        "application/json",
                        "{\"kind\":\"ConfigMap\"}",
                        201,
                        "v1",
                        "ConfigMap")))
                .contains(".resource(typed(io.fabric8.kubernetes.api.model.ConfigMap.class, ");
        assertThat(ColdStartBaselines.typedClass("kubeflow.org/v1", "PyTorchJob"))
                .isNull();
    }

    @Test
    void refusesARequestItCannotMakeTheSameWay() {
        assertThatThrownBy(() -> ColdStartBaselines.kubernetesCall(request("GET", "/version", null, null)))
                .hasMessageContaining("cannot make GET /version");
        assertThatThrownBy(() -> ColdStartBaselines.kubernetesCall(
                        request("POST", "/api/v1/namespaces/run-a/pods/p/exec", null, "")))
                .hasMessageContaining("cannot make POST /api/v1/namespaces/run-a/pods/p/exec");
    }

    @Test
    void aBaselineCompilesWithItsCallsInTheOrderTheyWereMade() throws Exception {
        List<AwsCall> aws = List.of(
                AwsCall.parse(
                        "aws\t10\tsoftware.amazon.awssdk.services.eks.EksClient\tdescribeCluster\t"
                                + "software.amazon.awssdk.services.eks.model.DescribeClusterRequest.builder().name(\"c\").build()"),
                AwsCall.parse("aws\t30\tsoftware.amazon.awssdk.services.dynamodb.DynamoDbClient\tputItem\t"
                        + "software.amazon.awssdk.services.dynamodb.model.PutItemRequest.builder().tableName(\"t\")"
                        + ".item(java.util.Map.ofEntries(java.util.Map.entry(\"pk\", software.amazon.awssdk.services"
                        + ".dynamodb.model.AttributeValue.builder().s(\"x\").build()))).build()"));
        List<Request> kubernetes =
                List.of(new Request(20, "GET", "/api/v1/namespaces/default", null, null, "", 200, "v1", "Namespace"));

        String source = ColdStartBaselines.source("CheckJob", aws, kubernetes, "{\"ok\":true}");

        assertThat(source)
                .contains("public final class BaselineCheckJob implements RequestStreamHandler")
                .doesNotContain("io.trainplane");
        assertThat(source.indexOf("describeCluster(")).isLessThan(source.indexOf("withName(\"default\")"));
        assertThat(source.indexOf("withName(\"default\")")).isLessThan(source.indexOf("putItem("));
        assertThat(ColdStartBaselines.calls(aws, kubernetes)).isEqualTo("2 AWS + 1 Kubernetes");
        Path file = dir.resolve("BaselineCheckJob.java");
        Files.writeString(file, source);
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int status = ToolProvider.getSystemJavaCompiler()
                .run(
                        null,
                        null,
                        errors,
                        "--release",
                        "21",
                        "-proc:none",
                        "-cp",
                        System.getProperty("java.class.path"),
                        "-d",
                        dir.toString(),
                        file.toString());
        assertThat(status).as(errors.toString()).isZero();
    }

    private static Request request(String method, String path, String query, String body) {
        return new Request(0, method, path, query, "application/json", body, 200, "", "");
    }
}
