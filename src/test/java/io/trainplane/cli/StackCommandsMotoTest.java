package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.MotoServer;
import io.trainplane.core.Json;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStatus;
import io.trainplane.runs.RunStore;
import io.trainplane.runs.RunsTable;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * start, status, list and cancel against moto: a stack with Trainplane's outputs (CloudFormation
 * DescribeStacks), the runs table in moto's DynamoDB, a state machine in moto's Step Functions.
 */
class StackCommandsMotoTest {
    @RegisterExtension
    static final MotoServer MOTO = new MotoServer();

    static final String STACK = "trainplane-test";
    static final String TABLE = "trainplane-test-Runs";

    @TempDir
    Path dir;

    DynamoDbClient dynamo;
    CloudFormationClient cloudFormation;
    SfnClient sfn;
    String pipeline;
    String cleanup;

    @BeforeEach
    void stack() {
        MOTO.reset();
        dynamo = MOTO.client(DynamoDbClient.builder());
        cloudFormation = MOTO.client(CloudFormationClient.builder());
        sfn = MOTO.client(SfnClient.builder());
        RunsTable.create(dynamo, TABLE);
        RunFixtures.populate(dynamo, TABLE);
        pipeline = sfn.createStateMachine(r -> r.name("TrainingPipeline-test")
                        .roleArn(MotoServer.roleArn("sfn"))
                        .definition("{\"StartAt\":\"P\",\"States\":{\"P\":{\"Type\":\"Pass\",\"End\":true}}}"))
                .stateMachineArn();
        cleanup = sfn.createStateMachine(r -> r.name("Cleanup-test")
                        .roleArn(MotoServer.roleArn("sfn"))
                        .definition("{\"StartAt\":\"P\",\"States\":{\"P\":{\"Type\":\"Pass\",\"End\":true}}}"))
                .stateMachineArn();
        String template =
                """
                {"Resources": {"Handle": {"Type": "AWS::CloudFormation::WaitConditionHandle"}},
                 "Outputs": {"RunsTableName": {"Value": "%s"}, "TrainingPipelineArn": {"Value": "%s"}, "CleanupArn": {"Value": "%s"}}}
                """
                        .formatted(TABLE, pipeline, cleanup);
        cloudFormation.createStack(r -> r.stackName(STACK).templateBody(template));
    }

    CliTest.Result cli(String... args) {
        return cli(RunFixtures.clients(dynamo, cloudFormation, sfn), args);
    }

    CliTest.Result cli(CliClients clients, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.commandLine(clients)
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(args);
        return new CliTest.Result(exit, out.toString(), err.toString());
    }

    Path spec(String json) throws IOException {
        Path f = dir.resolve("spec.json");
        Files.writeString(f, json);
        return f;
    }

    @Test
    void statusAndListResolveTheTableFromTheStack() {
        CliTest.Result status = cli("status", "run-bad", "--stack", STACK, "--output", "json");
        assertThat(status.exit()).as(status.err()).isZero();
        assertThat(Json.read(status.out()).path("error").path("error").asText()).isEqualTo("InsufficientCapacity");

        CliTest.Result list = cli("list", "--stack", STACK);
        assertThat(list.exit()).as(list.err()).isZero();
        assertThat(list.out()).contains("run-ok", "run-bad");
    }

    @Test
    void planWithTheStackPricesTheRunAsThePriceListDoesToday() {
        // The "live" catalog prices every type at twice the offline table's price.
        CliClients live =
                RunFixtures.withCatalog(RunFixtures.clients(dynamo, cloudFormation, sfn), new OfflineCatalog(2));
        CliTest.Result offline = cli("plan", "examples/quickstart.json", "--output", "json");
        CliTest.Result planned = cli(live, "plan", "examples/quickstart.json", "--stack", STACK, "--output", "json");

        assertThat(planned.exit()).as(planned.err()).isZero();
        JsonNode cost = Json.read(planned.out()).path("cost");
        assertThat(cost.toString()).contains("(pricing:GetProducts)");
        assertThat(cost.path("worstCase").path("total").asDouble())
                .isGreaterThan(Json.read(offline.out())
                        .path("cost")
                        .path("worstCase")
                        .path("total")
                        .asDouble());
    }

    @Test
    void withoutThePriceListPlanWarnsAndPricesFromTheSnapshot() {
        // EC2's half answered by moto_server, which has no Price List.
        var moto = io.trainplane.aws.catalog.AwsInstanceCatalog.of(
                software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.create(),
                software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("testing", "testing")),
                MotoServer.REGION,
                java.util.Map.of("AWS_ENDPOINT_URL", MOTO.endpoint().toString()));
        CliTest.Result planned = cli(
                RunFixtures.withCatalog(RunFixtures.clients(dynamo, cloudFormation, sfn), moto),
                "plan",
                "examples/quickstart.json",
                "--stack",
                STACK);

        assertThat(planned.exit()).as(planned.err()).isZero();
        assertThat(planned.err())
                .contains("warning: EC2 and the Price List could not be asked")
                .contains("pricing:GetProducts");
        assertThat(planned.out()).doesNotContain("(pricing:GetProducts)");
    }

    @Test
    void startRefusesATypeEc2DescribesOtherwiseTodayBeforeAnythingStarts() throws IOException {
        InstanceCatalogAnswering twoGpus = new InstanceCatalogAnswering();
        Path spec = spec(
                """
                {"runId": "moto-shape", "cluster": {"mode": "create", "nodeGroup": {"instanceType": "g5.12xlarge", "nodes": 1}},
                 "training": {"workers": 1, "gpusPerWorker": 4}}
                """);
        CliTest.Result r = cli(
                RunFixtures.withCatalog(RunFixtures.clients(dynamo, cloudFormation, sfn), twoGpus),
                "start",
                spec.toString(),
                "--stack",
                STACK,
                "--yes");

        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(2);
        assertThat(r.err()).contains("/cluster/nodeGroup/gpusPerNode", "EC2 describes g5.12xlarge: 2 NVIDIA A10G GPUs");
        assertThat(sfn.listExecutions(x -> x.stateMachineArn(pipeline)).executions())
                .isEmpty();
    }

    /** EC2 describing g5.12xlarge with two GPUs, not the catalog's four. */
    static final class InstanceCatalogAnswering implements io.trainplane.aws.catalog.InstanceCatalog {
        @Override
        public java.util.Map<String, io.trainplane.spec.InstanceShapes.Shape> describeInstanceTypes(
                java.util.Collection<String> types) {
            var shape = io.trainplane.spec.InstanceShapes.of("g5.12xlarge").orElseThrow();
            return java.util.Map.of(
                    "g5.12xlarge",
                    new io.trainplane.spec.InstanceShapes.Shape(
                            shape.name(),
                            shape.vcpus(),
                            shape.memoryMiB(),
                            2,
                            shape.accelerator(),
                            shape.gpuMemoryMiB(),
                            0,
                            null,
                            shape.efaInterfaces(),
                            shape.architecture(),
                            shape.maxPods(),
                            shape.usageClasses()));
        }

        @Override
        public java.util.Map<String, Double> onDemandPerHour(String region, java.util.Collection<String> types) {
            return new OfflineCatalog().onDemandPerHour(region, types);
        }

        @Override
        public java.util.Map<String, Double> spotPerHour(java.util.Collection<String> types, java.time.Instant since) {
            return java.util.Map.of();
        }

        @Override
        public java.util.Optional<CapacityBlockOffering> capacityBlockOffering(String type, int count, int hours) {
            return java.util.Optional.empty();
        }
    }

    @Test
    void anUnknownStackExitsFour() {
        CliTest.Result r = cli("list", "--stack", "absent");
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(Main.NOT_FOUND);
        assertThat(r.err()).contains("absent");
    }

    @Test
    void startNamesTheExecutionAfterTheRunThenCancelStopsIt() throws IOException {
        Path spec = spec(
                """
                {"runId": "moto-run-1", "cluster": {"mode": "existing", "name": "warm"}}
                """);
        CliTest.Result started = cli("start", spec.toString(), "--stack", STACK, "--output", "json", "--yes");
        assertThat(started.exit()).as(started.err()).isZero();
        JsonNode s = Json.read(started.out());
        String arn = s.path("executionArn").asText();
        assertThat(arn).endsWith(":moto-run-1");
        assertThat(s.path("consoleUrl").asText())
                .isEqualTo(
                        "https://us-east-1.console.aws.amazon.com/states/home?region=us-east-1#/v2/executions/details/"
                                + arn);
        JsonNode input =
                Json.read(sfn.describeExecution(r -> r.executionArn(arn)).input());
        assertThat(input.path("runId").asText()).isEqualTo("moto-run-1");
        assertThat(input.path("training").path("epochs").isInt())
                .as("the normalized spec, defaults applied")
                .isTrue();

        CliTest.Result again = cli("start", spec.toString(), "--stack", STACK, "--yes");
        assertThat(again.exit()).isEqualTo(Main.INVALID_INPUT);
        assertThat(again.err()).contains("already exists");

        CliTest.Result cancelled = cli("cancel", "moto-run-1", "--stack", STACK);
        assertThat(cancelled.exit()).as(cancelled.err()).isZero();
        assertThat(cancelled.out()).contains("stopped run moto-run-1", "safety net");
        assertThat(sfn.describeExecution(r -> r.executionArn(arn)).status()).isEqualTo(ExecutionStatus.ABORTED);

        assertThat(cli("cancel", "never-started", "--stack", STACK).exit()).isEqualTo(Main.NOT_FOUND);
    }

    @Test
    void startShowsTheCostAndStartsOnlyOnYes() throws IOException {
        Path spec = spec(
                """
                {"runId": "moto-run-2", "cluster": {"mode": "existing", "name": "warm"}}
                """);
        String arn = pipeline.replace(":stateMachine:", ":execution:") + ":moto-run-2";

        CliTest.Result script = cli("start", spec.toString(), "--stack", STACK, "--output", "json");
        assertThat(script.exit()).as("no terminal, no --yes").isEqualTo(Main.INVALID_INPUT);
        JsonNode error = Json.read(script.out()).path("error");
        assertThat(error.path("message").asText()).contains("pass --yes", "expected $", "worst case $");
        assertThat(sfn.listExecutions(r -> r.stateMachineArn(pipeline)).executions())
                .isEmpty();

        List<String> prompts = new ArrayList<>();
        CliTest.Result declined = cliAnswering(prompts, "maybe", "n");
        assertThat(declined.exit()).isEqualTo(Main.FAILED);
        assertThat(prompts).containsExactly("Proceed? [Y/n] ", "Proceed? [Y/n] ");
        assertThat(declined.err())
                .contains("run moto-run-2 on stack " + STACK + ": expected $", "worst case $", "answer y or n")
                .contains("not started: nothing was created");
        assertThat(sfn.listExecutions(r -> r.stateMachineArn(pipeline)).executions())
                .isEmpty();

        CliTest.Result closed = cliAnswering(new ArrayList<>());
        assertThat(closed.exit()).as("input ended: no answer is not a yes").isEqualTo(Main.FAILED);

        CliTest.Result accepted = cliAnswering(new ArrayList<>(), "");
        assertThat(accepted.exit()).as(accepted.err()).isZero();
        assertThat(accepted.out()).contains("started run moto-run-2");
        assertThat(sfn.describeExecution(r -> r.executionArn(arn)).status()).isNotNull();
    }

    /** start of moto-run-2 with a person at a terminal giving {@code answers}, one per prompt. */
    private CliTest.Result cliAnswering(List<String> prompts, String... answers) {
        Iterator<String> next = List.of(answers).iterator();
        Terminal person = new Terminal() {
            @Override
            public boolean interactive() {
                return true;
            }

            @Override
            public String ask(String prompt) {
                prompts.add(prompt);
                return next.hasNext() ? next.next() : null;
            }
        };
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.commandLine(RunFixtures.clients(dynamo, cloudFormation, sfn, person))
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute("start", dir.resolve("spec.json").toString(), "--stack", STACK);
        return new CliTest.Result(exit, out.toString(), err.toString());
    }

    @Test
    void anInvalidSpecStartsNothing() throws IOException {
        CliTest.Result r = cli("start", spec("{\"training\": {}}").toString(), "--stack", STACK);
        assertThat(r.exit()).isEqualTo(Main.INVALID_INPUT);
        assertThat(sfn.listExecutions(q -> q.stateMachineArn(pipeline)).executions())
                .isEmpty();
    }

    @Test
    void cleanupStartsTheStacksCleanupForARunThatLeftResources() {
        RunStore store = new RunStore(dynamo, TABLE, java.time.Clock.systemUTC());
        store.create("left-run", "{\"runId\":\"left-run\"}", null);
        store.update("left-run", r -> r.withResource(RunResources.FILE_SYSTEM, "fs-0a1b2c3d")
                .withResource(RunResources.CLEANUP_STARTED, java.time.Instant.parse("2026-03-01T10:00:00Z"))
                .withStatus(RunStatus.FAILED));
        store.create("live-run", "{\"runId\":\"live-run\"}", null);
        store.update("live-run", r -> r.withResource(RunResources.FILE_SYSTEM, "fs-9")
                .withStatus(RunStatus.TRAINING));

        CliTest.Result started = cli("cleanup", "left-run", "--stack", STACK);
        assertThat(started.exit()).as(started.err()).isZero();
        assertThat(started.out())
                .contains(
                        "started the cleanup of run left-run",
                        "efs:file-system/fs-0a1b2c3d",
                        "trainplane status left-run --stack " + STACK);
        var executions = sfn.listExecutions(q -> q.stateMachineArn(cleanup)).executions();
        assertThat(executions).singleElement().satisfies(e -> {
            assertThat(e.name())
                    .startsWith("cleanup-left-run-")
                    .hasSizeLessThanOrEqualTo(CleanupCommand.MAX_EXECUTION_NAME);
            JsonNode input = Json.read(
                    sfn.describeExecution(r -> r.executionArn(e.executionArn())).input());
            assertThat(input.path("runId").asText()).isEqualTo("left-run");
        });
        assertThat(store.get("left-run").resources().has(RunResources.CLEANUP_STARTED))
                .as("a fresh deadline for this cleanup")
                .isFalse();
        assertThat(store.get("left-run").resources().get(RunResources.FILE_SYSTEM))
                .contains("fs-0a1b2c3d");

        CliTest.Result nothing = cli("cleanup", "run-ok", "--stack", STACK, "--output", "json");
        assertThat(nothing.exit()).isZero();
        assertThat(Json.read(nothing.out()).path("started").asBoolean()).isFalse();

        CliTest.Result live = cli("cleanup", "live-run", "--stack", STACK);
        assertThat(live.exit()).isEqualTo(Main.INVALID_INPUT);
        assertThat(live.err()).contains("still TRAINING", "trainplane cancel live-run --stack " + STACK);

        assertThat(cli("cleanup", "left-run", "--table", TABLE).exit()).isEqualTo(Main.INVALID_INPUT);
        assertThat(cli("cleanup", "never-started", "--stack", STACK).exit()).isEqualTo(Main.NOT_FOUND);
        assertThat(sfn.listExecutions(q -> q.stateMachineArn(cleanup)).executions())
                .hasSize(1);
    }

    @Test
    void aCleanupExecutionNameFitsStepFunctionsLimit() {
        String longest = "r".repeat(io.trainplane.spec.Names.MAX_RUN_ID);
        String name = CleanupCommand.executionName(longest, java.time.Instant.parse("2026-03-01T10:00:00Z"));
        assertThat(name)
                .hasSize(CleanupCommand.MAX_EXECUTION_NAME)
                .startsWith("cleanup-rrr")
                .endsWith("-20260301100000");
        assertThat(CleanupCommand.executionName("quickstart", java.time.Instant.parse("2026-03-01T10:00:00Z")))
                .isEqualTo("cleanup-quickstart-20260301100000");
    }
}
