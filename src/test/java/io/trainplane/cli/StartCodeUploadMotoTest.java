package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.MotoServer;
import io.trainplane.core.Json;
import io.trainplane.runs.RunsTable;
import io.trainplane.spec.CodeDirectory;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * {@code start --stack} with a workload directory over the ConfigMap route's limits, against moto
 * as S3, Step Functions, DynamoDB and CloudFormation: the files land under
 * {@code runs/tp-<runId>/code/} of the stack's artifacts bucket before the execution starts with
 * {@code workload.package.route = bucket}; a bucket that is not there starts nothing.
 */
class StartCodeUploadMotoTest {
    @RegisterExtension
    static final MotoServer MOTO = new MotoServer();

    static final String STACK = "trainplane-test";
    static final String TABLE = "trainplane-test-Runs";
    static final String BUCKET = "trainplane-test-artifacts";

    @TempDir
    Path dir;

    DynamoDbClient dynamo;
    CloudFormationClient cloudFormation;
    SfnClient sfn;
    S3Client s3;
    String pipeline;
    /** A file too large for the ConfigMap route, not UTF-8 (a bundled vocabulary, say). */
    byte[] vocabulary;

    @BeforeEach
    void stack() throws IOException {
        MOTO.reset();
        dynamo = MOTO.client(DynamoDbClient.builder());
        cloudFormation = MOTO.client(CloudFormationClient.builder());
        sfn = MOTO.client(SfnClient.builder());
        // moto answers on 127.0.0.1: a bucket cannot be a host name there.
        s3 = MOTO.client(S3Client.builder().forcePathStyle(true));
        RunsTable.create(dynamo, TABLE);
        pipeline = sfn.createStateMachine(r -> r.name("TrainingPipeline-test")
                        .roleArn(MotoServer.roleArn("sfn"))
                        .definition("{\"StartAt\":\"P\",\"States\":{\"P\":{\"Type\":\"Pass\",\"End\":true}}}"))
                .stateMachineArn();
        String template =
                """
                {"Resources": {"Handle": {"Type": "AWS::CloudFormation::WaitConditionHandle"}},
                 "Outputs": {"RunsTableName": {"Value": "%s"}, "TrainingPipelineArn": {"Value": "%s"},
                             "ArtifactsBucketName": {"Value": "%s"}}}
                """
                        .formatted(TABLE, pipeline, BUCKET);
        cloudFormation.createStack(r -> r.stackName(STACK).templateBody(template));

        Path code = Files.createDirectories(dir.resolve("code/model"));
        Files.writeString(dir.resolve("code/train.py"), "print('training')\n");
        Files.writeString(code.resolve("net.py"), "import torch\n");
        vocabulary = new byte[(int) CodeDirectory.CONFIGMAP_BYTES + 4096];
        new Random(17).nextBytes(vocabulary);
        Files.write(code.resolve("vocab.bin"), vocabulary);
        Files.createDirectories(dir.resolve("code/__pycache__"));
        Files.writeString(dir.resolve("code/__pycache__/train.cpython-312.pyc"), "left out");
    }

    Path spec(String runId) throws IOException {
        Path f = dir.resolve(runId + ".json");
        Files.writeString(
                f,
                """
                {"runId": "%s", "cluster": {"mode": "existing", "name": "warm"},
                 "workload": {"code": "./code", "commands": {"train": {"args": ["python", "train.py"]}}}}
                """
                        .formatted(runId));
        return f;
    }

    CliTest.Result cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.commandLine(RunFixtures.clients(dynamo, cloudFormation, sfn, s3, Terminal.NONE))
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(args);
        return new CliTest.Result(exit, out.toString(), err.toString());
    }

    String text(String key) {
        return s3.getObjectAsBytes(r -> r.bucket(BUCKET).key(key)).asString(StandardCharsets.UTF_8);
    }

    @Test
    void aDirectoryOverTheConfigMapLimitsIsUploadedThenTheExecutionStartsWithTheBucketRoute() throws IOException {
        s3.createBucket(r -> r.bucket(BUCKET));
        // A file an earlier attempt of this runId uploaded, which the directory no longer has.
        s3.putObject(
                r -> r.bucket(BUCKET).key("runs/tp-big-code/code/old.py"),
                software.amazon.awssdk.core.sync.RequestBody.fromString("stale"));
        s3.putObject(
                r -> r.bucket(BUCKET).key("runs/tp-big-code/model/last.pt"),
                software.amazon.awssdk.core.sync.RequestBody.fromString("not code"));

        CliTest.Result started =
                cli("start", spec("big-code").toString(), "--stack", STACK, "--output", "json", "--yes");
        assertThat(started.exit()).as(started.err()).isZero();
        assertThat(started.err())
                .contains(
                        "3 files",
                        "via the artifacts bucket (s3://" + BUCKET + "/runs/tp-big-code/code/)",
                        "removed 1 other keys");

        assertThat(s3.listObjectsV2(r -> r.bucket(BUCKET).prefix("runs/tp-big-code/"))
                        .contents())
                .extracting(S3Object::key)
                .containsExactly(
                        "runs/tp-big-code/code/model/net.py",
                        "runs/tp-big-code/code/model/vocab.bin",
                        "runs/tp-big-code/code/train.py",
                        "runs/tp-big-code/model/last.pt");
        assertThat(text("runs/tp-big-code/code/train.py")).isEqualTo("print('training')\n");
        assertThat(text("runs/tp-big-code/code/model/net.py")).isEqualTo("import torch\n");
        ResponseBytes<GetObjectResponse> vocab =
                s3.getObjectAsBytes(r -> r.bucket(BUCKET).key("runs/tp-big-code/code/model/vocab.bin"));
        assertThat(vocab.asByteArray()).isEqualTo(vocabulary);

        String arn = Json.read(started.out()).path("executionArn").asText();
        JsonNode input =
                Json.read(sfn.describeExecution(r -> r.executionArn(arn)).input());
        JsonNode packaged = input.at("/workload/package");
        assertThat(packaged.path("route").asText()).isEqualTo("bucket");
        assertThat(packaged.path("s3Uri").asText()).isEqualTo("s3://" + BUCKET + "/runs/tp-big-code/code/");
        assertThat(packaged.path("bytes").asLong()).isEqualTo(vocabulary.length + 18 + 13);
        assertThat(packaged.has("files"))
                .as("the bucket route lists no files in the spec")
                .isFalse();
        assertThat(vocab.response().metadata())
                .containsEntry(
                        ArtifactsBucketUpload.SHA256_METADATA,
                        packaged.path("sha256").asText());
        assertThat(Json.read(started.out()).path("code")).isEqualTo(packaged);
    }

    @Test
    void aRerunOfTheSameRunIdWritesTheSameKeysWithTheSameDigest() throws IOException {
        s3.createBucket(r -> r.bucket(BUCKET));
        Path spec = spec("rerun-code");
        // The first attempt uploads, then Step Functions refuses: no state machine (a stack half deleted).
        sfn.deleteStateMachine(r -> r.stateMachineArn(pipeline));
        CliTest.Result first = cli("start", spec.toString(), "--stack", STACK, "--yes");
        assertThat(first.exit()).as(first.err()).isEqualTo(Main.AWS_ERROR);
        String digest = s3.headObject(r -> r.bucket(BUCKET).key("runs/tp-rerun-code/code/train.py"))
                .metadata()
                .get(ArtifactsBucketUpload.SHA256_METADATA);
        var keys = s3.listObjectsV2(r -> r.bucket(BUCKET)).contents().stream()
                .map(S3Object::key)
                .toList();

        pipeline = sfn.createStateMachine(r -> r.name("TrainingPipeline-test")
                        .roleArn(MotoServer.roleArn("sfn"))
                        .definition("{\"StartAt\":\"P\",\"States\":{\"P\":{\"Type\":\"Pass\",\"End\":true}}}"))
                .stateMachineArn();
        CliTest.Result second = cli("start", spec.toString(), "--stack", STACK, "--yes");
        assertThat(second.exit()).as(second.err()).isZero();
        assertThat(second.err())
                .contains("sha256 " + digest, "writes the same keys")
                .doesNotContain("removed");
        assertThat(s3.listObjectsV2(r -> r.bucket(BUCKET)).contents().stream()
                        .map(S3Object::key)
                        .toList())
                .isEqualTo(keys)
                .hasSize(3);
        assertThat(s3.headObject(r -> r.bucket(BUCKET).key("runs/tp-rerun-code/code/model/vocab.bin"))
                        .metadata())
                .containsEntry(ArtifactsBucketUpload.SHA256_METADATA, digest);
    }

    @Test
    void aMissingBucketStartsNothingAndTheErrorNamesTheBucketTheKeyAndTheFix() throws IOException {
        CliTest.Result r = cli("start", spec("no-bucket").toString(), "--stack", STACK, "--output", "json", "--yes");
        assertThat(r.exit()).as(r.out()).isEqualTo(Main.AWS_ERROR);
        String message = Json.read(r.out()).path("error").path("message").asText();
        assertThat(message)
                .contains(
                        "could not upload s3://" + BUCKET + "/runs/tp-no-bucket/code/",
                        "bucket " + BUCKET + " does not exist (NoSuchBucket)",
                        "redeploy the stack",
                        "Nothing was started");
        assertThat(sfn.listExecutions(q -> q.stateMachineArn(pipeline)).executions())
                .isEmpty();
    }

    @Test
    void aStackWithoutAnArtifactsBucketIsRefusedBeforeAnything() throws IOException {
        cloudFormation.deleteStack(q -> q.stackName(STACK));
        String template =
                """
                {"Resources": {"Handle": {"Type": "AWS::CloudFormation::WaitConditionHandle"}},
                 "Outputs": {"RunsTableName": {"Value": "%s"}, "TrainingPipelineArn": {"Value": "%s"}}}
                """
                        .formatted(TABLE, pipeline);
        cloudFormation.createStack(q -> q.stackName("old-stack").templateBody(template));
        CliTest.Result r = cli("start", spec("old-stack").toString(), "--stack", "old-stack", "--yes");
        assertThat(r.exit()).isEqualTo(Main.INVALID_INPUT);
        assertThat(r.err()).contains("has no output ArtifactsBucketName", "sam deploy");
        assertThat(sfn.listExecutions(q -> q.stateMachineArn(pipeline)).executions())
                .isEmpty();
    }
}
