package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.core.TerminalException;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStatus;
import io.trainplane.runs.RunStore;
import io.trainplane.workflow.StepWiring;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A file system kept by one run and adopted by the next: the new run's cluster reaches it only
 * when the mount targets, made for the first run's cluster, carry the new cluster's security
 * group too. Steps invoked one by one, as the state machine would, on one simulated account.
 */
class AdoptedVolumeTest {
    LocalCloud cloud;
    Handlers handlers;
    String quickstart;

    @BeforeEach
    void start() throws IOException {
        cloud = new LocalCloud(TestTime.START);
        handlers = new Handlers(cloud);
        quickstart = Files.readString(Path.of("examples/quickstart.json"));
    }

    @AfterEach
    void stop() {
        cloud.close();
    }

    /** A run of the quickstart named {@code runId} up to its volume being ready; its state. */
    JsonNode runUpToTheVolume(String runId, String adoptedFileSystem) {
        JsonNode state = runUpToCreateVolume(runId, adoptedFileSystem);
        handlers.invoke("CreateVolume", state);
        cloud.clock().advance(Duration.ofMinutes(1));
        JsonNode look = handlers.invoke("CheckVolume", state);
        for (int i = 0; i < 10 && !look.path("done").asBoolean(); i++) {
            cloud.clock().advance(Duration.ofSeconds(30));
            look = handlers.invoke("CheckVolume", state);
        }
        assertThat(look.path("done").asBoolean()).as(look.toString()).isTrue();
        return state;
    }

    /** The run's cleanup, and the end FinishRun would write: the run is over. */
    void finish(String runId) {
        JsonNode teardown = handlers.invoke("Teardown", Json.object().put("runId", runId));
        for (int i = 0; i < 60 && !teardown.path("done").asBoolean(); i++) {
            cloud.clock().advance(Duration.ofSeconds(30));
            teardown = handlers.invoke("Teardown", Json.object().put("runId", runId));
        }
        assertThat(teardown.path("done").asBoolean()).as(teardown.toString()).isTrue();
        StepWiring.runStore(cloud.clients()).update(runId, r -> r.withStatus(RunStatus.SUCCEEDED));
    }

    /** The quickstart as run {@code runId}, keeping its volume, adopting {@code adoptedFileSystem} unless null. */
    String spec(String runId, String adoptedFileSystem) {
        String spec = quickstart
                .replace("\"runId\": \"quickstart\"", "\"runId\": \"" + runId + "\"")
                .replace("\"keepVolume\": false", "\"keepVolume\": true");
        return adoptedFileSystem == null
                ? spec
                : spec.replace(
                        "\"volume\": { \"type\": \"efs\" }",
                        "\"volume\": { \"type\": \"efs\", \"fileSystemId\": \"" + adoptedFileSystem + "\" }");
    }

    /** StartRun refuses the run's adoption, and nothing is created. */
    void refusedAtStart(String runId, String fileSystem, String reason, String... saying) {
        int clusters = cloud.calls().counts().getOrDefault("eks:CreateCluster", 0);
        assertThatThrownBy(() -> handlers.start(spec(runId, fileSystem), runId))
                .isInstanceOfSatisfying(TerminalException.class, e -> {
                    assertThat(e.reason().name()).isEqualTo(reason);
                    assertThat(e.getMessage()).contains(saying);
                });
        assertThat(cloud.calls().counts().getOrDefault("eks:CreateCluster", 0)).isEqualTo(clusters);
    }

    /** The same, with its cluster up and its volume not yet asked for. */
    JsonNode runUpToCreateVolume(String runId, String adoptedFileSystem) {
        JsonNode state = handlers.start(spec(runId, adoptedFileSystem), runId);
        handlers.invoke("CreateCluster", state);
        // CheckCluster asks EKS for the cluster once its control-plane log group exists.
        cloud.clock().advance(Duration.ofMinutes(1));
        handlers.invoke("CheckCluster", state);
        cloud.clock().advance(Duration.ofMinutes(15));
        return state;
    }

    RunRecord record(String runId) {
        return StepWiring.runStore(cloud.clients()).get(runId);
    }

    String clusterGroup(String runId) {
        return cloud.eks()
                .describeCluster(r -> r.name("tp-" + runId + "-eks"))
                .cluster()
                .resourcesVpcConfig()
                .clusterSecurityGroupId();
    }

    List<List<String>> groupsOfEachMountTarget(String fileSystem) {
        return cloud.efs().describeMountTargets(r -> r.fileSystemId(fileSystem)).mountTargets().stream()
                .map(mt -> cloud.efs()
                        .describeMountTargetSecurityGroups(r -> r.mountTargetId(mt.mountTargetId()))
                        .securityGroups())
                .toList();
    }

    int calls(String serviceOperation) {
        return cloud.calls().counts().getOrDefault(serviceOperation, 0);
    }

    @Test
    void eachRunAdoptingAKeptFileSystemGetsItsClustersGroupOnTheMountTargetsForTheRunOnly() {
        runUpToTheVolume("first", null);
        String fileSystem =
                record("first").resources().get(RunResources.FILE_SYSTEM).orElseThrow();
        String first = clusterGroup("first");
        assertThat(groupsOfEachMountTarget(fileSystem)).hasSize(2).containsOnly(List.of(first));
        finish("first");
        assertThat(groupsOfEachMountTarget(fileSystem))
                .as("kept as the first run made it")
                .containsOnly(List.of(first));

        for (String runId : List.of("second", "third")) {
            JsonNode state = runUpToTheVolume(runId, fileSystem);
            String group = clusterGroup(runId);
            assertThat(group).isNotEqualTo(first);
            assertThat(groupsOfEachMountTarget(fileSystem)).as(runId).hasSize(2).containsOnly(List.of(first, group));
            assertThat(record(runId).resources().get(RunResources.MOUNT_TARGET_GROUP))
                    .contains(group);
            assertThat(record(runId).resources().list(RunResources.MOUNT_TARGETS_OPENED))
                    .hasSize(2);

            // Step Functions may run the step again: nothing more changes.
            int modifications = calls("efs:ModifyMountTargetSecurityGroups");
            handlers.invoke("CheckVolume", state);
            assertThat(calls("efs:ModifyMountTargetSecurityGroups")).isEqualTo(modifications);
            assertThat(groupsOfEachMountTarget(fileSystem)).containsOnly(List.of(first, group));

            // Cleanup takes the run's group back off and leaves the file system as the run found it.
            finish(runId);
            assertThat(groupsOfEachMountTarget(fileSystem))
                    .as(runId + " cleaned up")
                    .containsOnly(List.of(first));
            assertThat(record(runId).resources().has(RunResources.MOUNT_TARGET_GROUP))
                    .isFalse();
            assertThat(record(runId).resources().has(RunResources.MOUNT_TARGETS_OPENED))
                    .isFalse();
        }
        assertThat(cloud.efs()
                        .describeFileSystems(r -> r.fileSystemId(fileSystem))
                        .fileSystems())
                .hasSize(1);
        assertThat(calls("efs:CreateMountTarget"))
                .as("the adopting runs make no mount target")
                .isEqualTo(2);
    }

    /**
     * A volume is adopted only when it is free: not while the run that made it still runs, not
     * while another run has adopted it, not when its run did not keep it (its cleanup deletes it);
     * and nothing is created for a refused run.
     */
    @Test
    void aFileSystemInUseOrNotKeptIsNotAdopted() {
        runUpToTheVolume("first", null);
        String fileSystem =
                record("first").resources().get(RunResources.FILE_SYSTEM).orElseThrow();

        refusedAtStart("early", fileSystem, "FileSystemInUse", "run first made and still uses");

        finish("first");
        // A run that claimed it at StartRun and ended before mounting it lets go of it too.
        handlers.start(spec("gives-up", fileSystem), "gives-up");
        assertThat(StepWiring.runStore(cloud.clients()).holder(RunStore.Claim.FILE_SYSTEM, fileSystem))
                .contains("gives-up");
        finish("gives-up");
        assertThat(StepWiring.runStore(cloud.clients()).holder(RunStore.Claim.FILE_SYSTEM, fileSystem))
                .isEmpty();
        runUpToTheVolume("second", fileSystem);
        refusedAtStart("third", fileSystem, "FileSystemInUse", "which run second uses now");
        finish("second");
        runUpToTheVolume("fourth", fileSystem);
        assertThat(StepWiring.runStore(cloud.clients()).holder(RunStore.Claim.FILE_SYSTEM, fileSystem))
                .contains("fourth");
        finish("fourth");
        assertThat(StepWiring.runStore(cloud.clients()).holder(RunStore.Claim.FILE_SYSTEM, fileSystem))
                .isEmpty();

        // A run that did not keep its volume: its cleanup deletes it, so no one may adopt it.
        String dropping = quickstart.replace("\"runId\": \"quickstart\"", "\"runId\": \"dropped\"");
        JsonNode dropped = handlers.start(dropping, "dropped");
        handlers.invoke("CreateCluster", dropped);
        cloud.clock().advance(Duration.ofMinutes(1));
        handlers.invoke("CheckCluster", dropped);
        cloud.clock().advance(Duration.ofMinutes(15));
        handlers.invoke("CreateVolume", dropped);
        String droppedVolume =
                record("dropped").resources().get(RunResources.FILE_SYSTEM).orElseThrow();
        StepWiring.runStore(cloud.clients()).update("dropped", r -> r.withStatus(RunStatus.FAILED));
        cloud.clock().advance(Duration.ofMinutes(2)); // available: only its keeping is in question
        refusedAtStart("late", droppedVolume, "FileSystemNotAdoptable", "did not keep", "cleanup.keepVolume");
    }
}
