package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
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
        String spec = quickstart
                .replace("\"runId\": \"quickstart\"", "\"runId\": \"" + runId + "\"")
                .replace("\"keepVolume\": false", "\"keepVolume\": true");
        if (adoptedFileSystem != null) {
            spec = spec.replace(
                    "\"volume\": { \"type\": \"efs\" }",
                    "\"volume\": { \"type\": \"efs\", \"fileSystemId\": \"" + adoptedFileSystem + "\" }");
        }
        JsonNode state = handlers.start(spec, runId);
        handlers.invoke("CreateCluster", state);
        // CheckCluster asks EKS for the cluster once its control-plane log group exists.
        cloud.clock().advance(Duration.ofMinutes(1));
        handlers.invoke("CheckCluster", state);
        cloud.clock().advance(Duration.ofMinutes(15));
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
        handlers.invoke("Teardown", Json.object().put("runId", "first"));
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
            handlers.invoke("Teardown", Json.object().put("runId", runId));
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
}
