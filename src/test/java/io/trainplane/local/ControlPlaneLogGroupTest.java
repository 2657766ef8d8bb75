package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.TestTime;
import io.trainplane.aws.RunTags;
import io.trainplane.aws.ec2.ControlPlaneLogGroup;
import io.trainplane.core.Json;
import io.trainplane.runs.RunResources;
import io.trainplane.spec.Names;
import io.trainplane.workflow.StepWiring;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The control-plane log group of a run's cluster: the run's own (its tags, the stack's retention)
 * because it exists before EKS is asked for the cluster; deleted by Teardown after the cluster,
 * never when it is someone else's.
 */
class ControlPlaneLogGroupTest {
    static final String LOG_GROUP = "/aws/eks/tp-quickstart-eks/cluster";

    LocalCloud cloud;
    Handlers handlers;
    JsonNode state;

    @BeforeEach
    void startRun() throws IOException {
        cloud = new LocalCloud(TestTime.START);
        handlers = new Handlers(cloud);
        state = handlers.start(Files.readString(Path.of("examples/quickstart.json")), "quickstart");
    }

    @AfterEach
    void stop() {
        cloud.close();
    }

    JsonNode logGroup() {
        return Json.read(cloud.cloudControl()
                .getResource(r -> r.typeName(ControlPlaneLogGroup.TYPE).identifier(LOG_GROUP))
                .resourceDescription()
                .properties());
    }

    @Test
    void theClusterIsAskedForOnlyOnceItsLogGroupExistsSoEksWritesIntoTheRunsOwn() {
        JsonNode created = handlers.invoke("CreateCluster", state);
        assertThat(created.path("waitingFor").asText()).isEqualTo("log group");
        JsonNode early = handlers.invoke("CheckCluster", state); // the log group is still being created
        assertThat(early.path("done").asBoolean()).isFalse();
        assertThat(cloud.calls().counts()).doesNotContainKey("eks:CreateCluster");

        cloud.clock().advance(Duration.ofSeconds(15));
        handlers.invoke("CheckCluster", state);

        assertThat(cloud.calls().counts()).containsEntry("eks:CreateCluster", 1);
        JsonNode group = logGroup();
        assertThat(group.path("RetentionInDays").asInt())
                .isEqualTo(cloud.clients().settings().logRetentionDays());
        assertThat(cloud.inventory()).contains(ControlPlaneLogGroup.REF_PREFIX + LOG_GROUP);
        assertThat(cloud.cloudControl().resources())
                .filteredOn(r -> r.ref().startsWith("logs:"))
                .singleElement()
                .satisfies(r -> assertThat(r.tags())
                        .isEqualTo(LocalCloud.runTags("quickstart").asMap()));
    }

    @Test
    void teardownLeavesALogGroupThatIsNotTheRuns() {
        // A log group of that name made by someone else (here: another stack's run with the same id).
        Names names = new Names("quickstart");
        cloud.cloudControl().createResource(ControlPlaneLogGroup.create(names, new RunTags("ml-dev", "quickstart"), 7));
        cloud.clock().advance(Duration.ofSeconds(15));
        var store = StepWiring.runStore(cloud.clients());
        store.update("quickstart", r -> r.withResource(RunResources.LOG_GROUP, LOG_GROUP));

        JsonNode result = handlers.invoke("Teardown", Json.object().put("runId", "quickstart"));

        assertThat(result.path("done").asBoolean()).isTrue();
        assertThat(logGroup().path("RetentionInDays").asInt()).isEqualTo(7); // still there
        assertThat(store.get("quickstart").resources().has(RunResources.LOG_GROUP))
                .isFalse();
    }

    @Test
    void teardownDeletesTheRunsLogGroupAfterItsCreateFinished() {
        handlers.invoke("CreateCluster", state);
        handlers.invoke("Teardown", Json.object().put("runId", "quickstart")); // the create is still running: wait
        assertThat(cloud.inventory()).contains(ControlPlaneLogGroup.REF_PREFIX + LOG_GROUP);

        for (int pass = 0;
                pass < 5 && cloud.inventory().contains(ControlPlaneLogGroup.REF_PREFIX + LOG_GROUP);
                pass++) {
            cloud.clock().advance(Duration.ofSeconds(15));
            handlers.invoke("Teardown", Json.object().put("runId", "quickstart"));
        }

        assertThat(cloud.inventory()).isEmpty();
        assertThat(cloud.calls().counts()).containsEntry("cloudcontrol:DeleteResource", 1);
    }
}
