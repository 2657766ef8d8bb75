package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.TestTime;
import io.trainplane.aws.RunEvents;
import io.trainplane.aws.Settings;
import io.trainplane.aws.ec2.Ec2Objects;
import io.trainplane.aws.eks.EksClusters;
import io.trainplane.core.Json;
import io.trainplane.local.LocalCloud;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.Names;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * A run of an example spec, started by StartRun on a {@link LocalCloud} (its record in DynamoDB
 * Local, the simulated AWS services, a Kubernetes API server), as the check steps find it; the
 * parts the steps take, built over that cloud. Each test builds the step it tests with them.
 */
final class StartedRun implements AutoCloseable {
    final LocalCloud cloud = new LocalCloud(TestTime.START);
    final RunStore store = StepWiring.runStore(cloud.clients());
    final Settings settings = cloud.clients().settings();
    final String runId;
    final JsonNode state;

    /** The quickstart example, run as {@code runId}. */
    StartedRun(String runId) {
        this(runId, spec -> spec);
    }

    /** The quickstart example changed by {@code edit}, run as {@code runId}. */
    StartedRun(String runId, UnaryOperator<ObjectNode> edit) {
        this("quickstart", runId, edit);
    }

    /** The example {@code examples/<example>.json} changed by {@code edit}, run as {@code runId}. */
    StartedRun(String example, String runId, UnaryOperator<ObjectNode> edit) {
        this.runId = runId;
        ObjectNode spec = edit.apply((ObjectNode) Json.read(example(example)));
        spec.put("runId", runId);
        ObjectNode input = Json.object()
                .put("executionName", runId)
                .put("executionArn", "arn:aws:states:us-east-1:000000000000:execution:TrainingPipeline:" + runId);
        input.set("spec", spec);
        state = startRun().run(input);
    }

    /** StartRun on this run's cloud and store. */
    StartRunStep startRun() {
        return new StartRunStep(
                store,
                events("StartRun"),
                cloud.clock(),
                settings,
                new io.trainplane.aws.s3.ResumeCheckpoints(cloud.clients()::s3),
                StepWiring.fileSystemTags(cloud.clients()),
                cloud.clients()::instanceCatalog);
    }

    static String example(String name) {
        try {
            return Files.readString(Path.of("examples", name + ".json"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Names names() {
        return new Names(runId);
    }

    RunRecord record() {
        return store.get(runId);
    }

    RunEventPublisher events(String function) {
        return new RunEventPublisher(
                function, () -> new RunEvents(cloud.bus(), settings.eventBusName()), store, cloud.clock());
    }

    Supplier<EksClusters> eksClusters() {
        return () -> new EksClusters(cloud.eks());
    }

    Supplier<Ec2Objects> ec2() {
        return () -> new Ec2Objects(cloud.cloudControl());
    }

    Supplier<io.trainplane.aws.ec2.ReservedCapacity> reservedCapacity() {
        return () -> new io.trainplane.aws.ec2.ReservedCapacity(cloud.cloudControl());
    }

    /** A part the step must not ask for on the path under test. */
    static <T> Supplier<T> notAskedFor(String what) {
        return () -> {
            throw new AssertionError(what + " was asked for");
        };
    }

    void advance(Duration duration) {
        cloud.clock().advance(duration);
    }

    /** The EKS cluster the run creates. */
    String clusterName() {
        return RunContext.from(state).names().clusterName();
    }

    /** CreateCluster and CheckCluster until the run's EKS cluster is ACTIVE. */
    void clusterActive() {
        new CreateClusterStep(store, ec2(), reservedCapacity(), settings).run(state);
        CheckClusterStep check = new CheckClusterStep(store, eksClusters(), ec2(), settings);
        for (int look = 0; look < 20; look++) {
            if (check.run(state).path("done").asBoolean()) {
                return;
            }
            advance(Duration.ofMinutes(1));
        }
        throw new AssertionError("cluster of " + runId + " not ACTIVE after 20 looks");
    }

    /** CreateNodegroup and CheckNodegroup until the run's node groups are ACTIVE and their nodes are on the cluster. */
    void nodegroupsActive() {
        StepWiring.createNodegroup(cloud.clients()).run(state);
        Step check = StepWiring.checkNodegroup(cloud.clients());
        for (int look = 0; look < 30; look++) {
            if (check.run(state).path("done").asBoolean()) {
                cloud.reconcile();
                return;
            }
            advance(Duration.ofMinutes(1));
        }
        throw new AssertionError("node groups of " + runId + " not ACTIVE after 30 looks");
    }

    int calls(String serviceOperation) {
        return cloud.calls().counts().getOrDefault(serviceOperation, 0);
    }

    @Override
    public void close() {
        cloud.close();
    }
}
