package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.TestTime;
import io.trainplane.aws.OfflineHttpClient;
import io.trainplane.aws.Settings;
import io.trainplane.clients.Clients;
import io.trainplane.core.Json;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.local.LocalCloud;
import io.trainplane.spec.RunSpecs;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.cloudcontrol.CloudControlClient;
import software.amazon.awssdk.services.cloudwatchevents.CloudWatchEventsClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.efs.EfsClient;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * The SnapStart hooks of every function: priming builds the function's clients of the services it
 * primes but calls nothing of them (so nothing reaches AWS and no credential is resolved before the
 * snapshot), and the function works after the hooks ran.
 */
class SnapStartHooksTest {
    final LocalCloud cloud = new LocalCloud(TestTime.START);
    final CountingClients clients = new CountingClients(cloud.clients());

    @AfterEach
    void close() {
        cloud.close();
    }

    @Test
    void primingEveryFunctionCallsNoClientAndTheFunctionsWorkAfterTheRestore() throws Exception {
        List<StepHandler> handlers = new ArrayList<>();
        Pipeline.FUNCTIONS.forEach(f -> handlers.add(f.handler(clients)));
        clients.calls.clear();

        for (StepHandler handler : handlers) {
            clients.built.clear();
            OfflineHttpClient answered = ((SnapStartHooks) handler.snapStart()).prime(1);
            assertThat(answered.requests())
                    .as(handler.name() + ": requests primed offline")
                    .isGreaterThanOrEqualTo(3);
            assertThat(answered.services())
                    .as(handler.name() + ": services primed")
                    .containsExactlyInAnyOrderElementsOf(
                            PRIMED_SERVICES.getOrDefault(handler.name(), Set.of("dynamodb")));
            assertThat(clients.built)
                    .as(handler.name() + ": its own clients of the services primed, built before the snapshot")
                    .containsAll(answered.services().stream()
                            .filter(CLIENT_OF_SERVICE::containsKey)
                            .map(CLIENT_OF_SERVICE::get)
                            .toList());
            handler.snapStart().beforeCheckpoint(null);
            handler.snapStart().afterRestore(null);
        }
        assertThat(clients.calls).as("client calls during the hooks").isEmpty();

        StepHandler startRun = handlers.get(0);
        assertThat(startRun.name()).isEqualTo("StartRun");
        var input = Json.object()
                .put("executionName", "quickstart")
                .put("executionArn", "arn:aws:states:us-east-1:000000000000:execution:TrainingPipeline:quickstart");
        input.set("spec", Json.read(Files.readString(Path.of("examples/quickstart.json"))));
        JsonNode state = invoke(startRun, input);
        assertThat(state.path("runId").asText()).isEqualTo("quickstart");
        assertThat(clients.calls).contains("dynamoDb.putItem");
        assertThat(StepWiring.runStore(cloud.clients()).get("quickstart").runId())
                .isEqualTo("quickstart");
        // The priming run never reached the function's table.
        assertThat(StepWiring.runStore(cloud.clients()).find(SnapStartHooks.RUN_ID))
                .isEmpty();
    }

    /** The services whose requests each function primes (by signing name), where more than the run store's. */
    static final Map<String, Set<String>> PRIMED_SERVICES = Map.ofEntries(
            Map.entry("StartRun", Set.of("dynamodb", "ec2", "pricing", "events")),
            Map.entry("CreateCluster", Set.of("dynamodb", "cloudcontrolapi")),
            Map.entry("CheckCluster", Set.of("dynamodb", "eks", "cloudcontrolapi")),
            Map.entry("CreateNodegroup", Set.of("dynamodb", "eks", "cloudcontrolapi")),
            Map.entry("CheckNodegroup", Set.of("dynamodb", "eks")),
            Map.entry("CreateVolume", Set.of("dynamodb", "elasticfilesystem")),
            Map.entry("CheckVolume", Set.of("dynamodb", "elasticfilesystem", "eks")),
            Map.entry("RecordFailure", Set.of("dynamodb", "events")),
            Map.entry("FinishRun", Set.of("dynamodb", "events")),
            Map.entry("CloseRun", Set.of("dynamodb", "events")),
            Map.entry("SafetyNet", Set.of("dynamodb", "states")),
            Map.entry(
                    "Janitor",
                    Set.of("dynamodb", "states", "events", "eks", "elasticfilesystem", "fsx", "cloudcontrolapi")),
            Map.entry("StartScheduledRun", Set.of("dynamodb", "states", "events")));

    /** The {@link Clients} method of each service's client, by signing name (FSx's is built per use). */
    static final Map<String, String> CLIENT_OF_SERVICE = Map.of(
            "dynamodb", "dynamoDb",
            "eks", "eks",
            "elasticfilesystem", "efs",
            "cloudcontrolapi", "cloudControl",
            "events", "events",
            "states", "sfn");

    @Test
    void theJanitorsPrimingAdoptsAnOrphanOfEachKindAndStartsItsCleanupOffline() {
        OfflineHttpClient answered =
                ((SnapStartHooks) Pipeline.JANITOR.handler(clients).snapStart()).prime(1);

        List<JsonNode> written = answered.requestBodies("DynamoDB_20120810.PutItem").stream()
                .map(body -> Json.read(body).path("Item"))
                .toList();
        assertThat(written)
                .as("the run's record, adopting what the sweep found")
                .anySatisfy(item -> assertThat(Json.write(item))
                        .contains(SnapStartHooks.RUN_ID, "fs-00000000\"", "fs-00000000000000000", "/aws/eks/"));
        assertThat(answered.requestBodies("AWSStepFunctions.StartExecution").stream()
                        .map(Json::read)
                        .filter(start ->
                                start.path("name").asText().startsWith("janitor-" + SnapStartHooks.RUN_ID + "-")))
                .as("the run's cleanup, started")
                .singleElement()
                .satisfies(start -> {
                    assertThat(start.path("stateMachineArn").asText()).isEqualTo(SnapStartHooks.STATE_MACHINE);
                    assertThat(Json.read(start.path("input").asText())
                                    .path("reason")
                                    .asText())
                            .isEqualTo("ORPHANED");
                });
        assertThat(clients.calls).as("client calls during the priming").isEmpty();
    }

    @Test
    void theSampleStateHoldsASpecAsStartRunLeavesIt() {
        assertThat(RunSpecs.normalize(SnapStartHooks.SAMPLE_SPEC)).isEqualTo(Json.read(SnapStartHooks.SAMPLE_SPEC));
    }

    static JsonNode invoke(StepHandler handler, JsonNode input) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        handler.handleRequest(new ByteArrayInputStream(Json.write(input).getBytes(StandardCharsets.UTF_8)), out, null);
        return Json.read(out.toString(StandardCharsets.UTF_8));
    }

    /** The local cloud's clients, every SDK call recorded as {@code client.operation}. */
    static final class CountingClients implements Clients {
        private static final Set<String> NOT_CALLS =
                Set.of("serviceName", "serviceClientConfiguration", "close", "toString", "hashCode", "equals");
        final List<String> calls = java.util.Collections.synchronizedList(new ArrayList<>());
        /** The clients asked for (built, if they were not yet). */
        final Set<String> built = java.util.Collections.synchronizedSet(new java.util.HashSet<>());

        private final Clients delegate;

        CountingClients(Clients delegate) {
            this.delegate = delegate;
        }

        <T> T counting(String name, Class<T> type, T client) {
            built.add(name);
            return type.cast(
                    Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
                        if (!NOT_CALLS.contains(method.getName())) {
                            calls.add(name + "." + method.getName());
                        }
                        try {
                            return method.invoke(client, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    }));
        }

        @Override
        public Settings settings() {
            return delegate.settings();
        }

        @Override
        public Clock clock() {
            return delegate.clock();
        }

        @Override
        public DynamoDbClient dynamoDb() {
            return counting("dynamoDb", DynamoDbClient.class, delegate.dynamoDb());
        }

        @Override
        public EksClient eks() {
            return counting("eks", EksClient.class, delegate.eks());
        }

        @Override
        public EfsClient efs() {
            return counting("efs", EfsClient.class, delegate.efs());
        }

        @Override
        public software.amazon.awssdk.services.s3.S3Client s3() {
            return counting("s3", software.amazon.awssdk.services.s3.S3Client.class, delegate.s3());
        }

        @Override
        public software.amazon.awssdk.services.fsx.FSxClient fsx() {
            return counting("fsx", software.amazon.awssdk.services.fsx.FSxClient.class, delegate.fsx());
        }

        @Override
        public io.trainplane.aws.catalog.InstanceCatalog instanceCatalog() {
            return counting("ec2", io.trainplane.aws.catalog.InstanceCatalog.class, delegate.instanceCatalog());
        }

        @Override
        public io.trainplane.aws.fsx.LustreFileSystems lustreFileSystems() {
            return counting("fsx", io.trainplane.aws.fsx.LustreFileSystems.class, delegate.lustreFileSystems());
        }

        @Override
        public CloudControlClient cloudControl() {
            return counting("cloudControl", CloudControlClient.class, delegate.cloudControl());
        }

        @Override
        public CloudWatchEventsClient events() {
            return counting("events", CloudWatchEventsClient.class, delegate.events());
        }

        @Override
        public SfnClient sfn() {
            return counting("sfn", SfnClient.class, delegate.sfn());
        }

        @Override
        public String cleanupStateMachineArn() {
            return delegate.cleanupStateMachineArn();
        }

        @Override
        public String trainingPipelineArn() {
            return delegate.trainingPipelineArn();
        }

        @Override
        public ClusterAccess clusters() {
            calls.add("clusters");
            return delegate.clusters();
        }

        @Override
        public void afterRestore() {
            delegate.afterRestore();
        }
    }
}
