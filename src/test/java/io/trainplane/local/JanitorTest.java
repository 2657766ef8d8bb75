package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.TestTime;
import io.trainplane.aws.RunTags;
import io.trainplane.aws.ec2.ControlPlaneLogGroup;
import io.trainplane.core.Json;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStatus;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.Names;
import io.trainplane.spec.RunSpecs;
import io.trainplane.workflow.StepWiring;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The janitor cleans up what finished, unknown and expired runs left, and nothing else. */
class JanitorTest {
    static final List<String> SUBNETS = List.of("subnet-0a1b2c3d4e5f60001", "subnet-0a1b2c3d4e5f60002");

    /** A run's tags in this (local) stack; none for a null run id. */
    static Map<String, String> ours(String runId) {
        return runId == null ? Map.of() : LocalCloud.runTags(runId).asMap();
    }

    static void cluster(LocalCloud cloud, String name, Map<String, String> tags) {
        cloud.eks().createCluster(r -> r.name(name)
                .version("1.35")
                .roleArn("arn:aws:iam::000000000000:role/x")
                .resourcesVpcConfig(v -> v.subnetIds(SUBNETS))
                .tags(tags));
    }

    static void cluster(LocalCloud cloud, String name, String runId) {
        cluster(cloud, name, ours(runId));
    }

    static String fileSystem(LocalCloud cloud, String token, Map<String, String> tags) {
        return cloud.efs()
                .createFileSystem(r -> r.creationToken(token)
                        .encrypted(true)
                        .tags(tags.entrySet().stream()
                                .map(t -> software.amazon.awssdk.services.efs.model.Tag.builder()
                                        .key(t.getKey())
                                        .value(t.getValue())
                                        .build())
                                .toList()))
                .fileSystemId();
    }

    static String fileSystem(LocalCloud cloud, String token, String runId) {
        return fileSystem(cloud, token, ours(runId));
    }

    /** The control-plane log group a run of {@code stack} made (through Cloud Control, as runs do). */
    static String logGroup(LocalCloud cloud, String stack, String runId) {
        Names names = new Names(runId);
        RunTags tags = stack.equals(LocalCloud.STACK) ? LocalCloud.runTags(runId) : new RunTags(stack, runId);
        cloud.cloudControl().createResource(ControlPlaneLogGroup.create(names, tags, 30));
        return ControlPlaneLogGroup.REF_PREFIX + ControlPlaneLogGroup.name(names.clusterName());
    }

    static String spec(String runId, boolean keepCluster) throws IOException {
        var spec = (com.fasterxml.jackson.databind.node.ObjectNode)
                Json.read(Files.readString(Path.of("examples/quickstart.json")));
        spec.put("runId", runId);
        ((com.fasterxml.jackson.databind.node.ObjectNode) spec.get("cleanup")).put("keepCluster", keepCluster);
        return Json.write(RunSpecs.normalize(Json.write(spec)));
    }

    @Test
    void aResourceTaggedWithNoRunIdIsReportedAndTheSweepGoesOnForTheOthers() throws IOException {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            String malformed = fileSystem(
                    cloud,
                    "malformed-volume",
                    Map.of(
                            RunTags.STACK_TAG,
                            LocalCloud.STACK,
                            RunTags.STACK_ID_TAG,
                            LocalCloud.runTags("any").stackId(),
                            RunTags.RUN_ID_TAG,
                            "Not A Run!"));
            cluster(cloud, "tp-ghost-run-eks", "ghost-run");
            cloud.clock().advance(Duration.ofMinutes(20));
            cloud.reconcile();

            JsonNode report = LocalJanitor.sweep(cloud);
            cloud.reconcile();

            assertThat(report.path("unaccountable").findValuesAsText("resource"))
                    .containsExactly("efs:file-system/" + malformed);
            assertThat(report.path("unaccountable").toString()).contains("'Not A Run!' is no run id");
            assertThat(report.path("runs").findValuesAsText("runId")).containsExactly("ghost-run");
            assertThat(report.path("failed")).isEmpty();
            List<String> refs = cloud.awsResources().stream().map(r -> r.ref()).toList();
            assertThat(refs).contains("efs:file-system/" + malformed).doesNotContain("eks:cluster/tp-ghost-run-eks");
        }
    }

    @Test
    void aSweepCleansUpOrphansOfFinishedUnknownAndExpiredRunsOnly() throws IOException {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunStore store = StepWiring.runStore(cloud.clients());
            // A run that started hours ago and is still "training": past its maxRunHours (4).
            store.create("old-run", spec("old-run", false), null);
            store.update("old-run", r -> r.withStatus(RunStatus.TRAINING));
            cluster(cloud, "tp-old-run-eks", "old-run");
            String oldVolume = fileSystem(cloud, "old-run-volume", "old-run");
            cloud.clock().advance(Duration.ofHours(5));
            // A finished run whose cluster outlived it.
            store.create("done-run", spec("done-run", false), null);
            store.update("done-run", r -> r.withStatus(RunStatus.SUCCEEDED));
            cluster(cloud, "tp-done-run-eks", "done-run");
            // A finished run that keeps its cluster.
            store.create("kept-run", spec("kept-run", true), null);
            store.update("kept-run", r -> r.withResource(RunResources.EKS_CLUSTER, "tp-kept-run-eks")
                    .withStatus(RunStatus.SUCCEEDED));
            cluster(cloud, "tp-kept-run-eks", "kept-run");
            // A run still within its time.
            store.create("live-run", spec("live-run", false), null);
            cluster(cloud, "tp-live-run-eks", "live-run");
            // A tagged file system no record knows.
            String ghost = fileSystem(cloud, "ghost-volume", "ghost-run");
            // A log group of an unknown run of this stack, whose cluster is gone.
            String ghostLogs = logGroup(cloud, LocalCloud.STACK, "ghost-logs");
            // Someone else's: untagged.
            cluster(cloud, "someone-elses", (String) null);
            String untagged = fileSystem(cloud, "someone-elses-volume", (String) null);
            // Another stack's runs, unknown to this stack's table: left alone, only counted.
            cluster(cloud, "tp-their-run-eks", new RunTags("ml-dev", "their-run").asMap());
            String theirVolume = fileSystem(cloud, "their-run-volume", new RunTags("ml-dev", "their-run").asMap());
            String theirLogs = logGroup(cloud, "ml-dev", "their-run");
            // Made before the stack tag existed: whose stack it was is unknown, so it is left alone too.
            cluster(cloud, "tp-legacy-run-eks", Map.of(Names.RUN_ID_TAG, "legacy-run"));
            cloud.clock().advance(Duration.ofMinutes(20));
            cloud.reconcile();

            JsonNode report = LocalJanitor.sweep(cloud);
            cloud.reconcile();

            assertThat(report.path("runs").findValuesAsText("runId"))
                    .containsExactlyInAnyOrder("old-run", "done-run", "ghost-logs");
            // A file system of a run this stack has no record of holds data: reported, kept.
            assertThat(report.path("unaccountable").findValuesAsText("resource"))
                    .containsExactly("efs:file-system/" + ghost);
            assertThat(report.path("unaccountable").toString()).contains("no record", "its data is kept");
            assertThat(report.path("skipped").asInt()).isEqualTo(2); // kept-run's cluster, live-run's cluster
            assertThat(report.path("otherStacks").asInt())
                    .isEqualTo(4); // their cluster, volume, log group; the legacy cluster
            List<String> refs = cloud.awsResources().stream().map(r -> r.ref()).toList();
            assertThat(refs)
                    .contains(
                            "eks:cluster/tp-kept-run-eks",
                            "eks:cluster/tp-live-run-eks",
                            "eks:cluster/someone-elses",
                            "efs:file-system/" + untagged,
                            "eks:cluster/" + LocalCloud.DEMO_CLUSTER,
                            "eks:cluster/tp-their-run-eks",
                            "efs:file-system/" + theirVolume,
                            theirLogs,
                            "eks:cluster/tp-legacy-run-eks",
                            "efs:file-system/" + ghost);
            assertThat(refs)
                    .doesNotContain(
                            "eks:cluster/tp-old-run-eks",
                            "eks:cluster/tp-done-run-eks",
                            "efs:file-system/" + oldVolume,
                            ghostLogs);
            assertThat(store.find("their-run")).isEmpty(); // no record made for another stack's run
            assertThat(cloud.stepFunctions().executions()).hasSize(3).allSatisfy(e -> assertThat(e.status())
                    .isEqualTo("SUCCEEDED"));
            assertThat(store.get("old-run").status()).isEqualTo(RunStatus.FAILED);
            assertThat(store.get("old-run").error().error()).isEqualTo("Orphaned");
            assertThat(store.find("ghost-run")).isEmpty();
            assertThat(store.get("done-run").status())
                    .isEqualTo(RunStatus.SUCCEEDED); // a finished run stays as it ended
            assertThat(store.get("live-run").status()).isEqualTo(RunStatus.PENDING);
            assertThat(cloud.bus().events())
                    .filteredOn(e -> e.detailType().equals("Orphans Cleaned"))
                    .singleElement()
                    .satisfies(e ->
                            assertThat(EventSchemasTest.validate(e.envelope())).isEmpty());

            // The next sweep within the hour finds nothing left to do.
            JsonNode again = LocalJanitor.sweep(cloud);
            assertThat(again.path("runs")).isEmpty();
            assertThat(again.path("otherStacks").asInt()).isEqualTo(4);
            assertThat(cloud.stepFunctions().executions()).hasSize(3);
        }
    }

    @Test
    void anOrphanedLustreFileSystemOfThisStackIsCleanedUpAndAnotherStacksIsLeftAlone() throws IOException {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunStore store = StepWiring.runStore(cloud.clients());
            store.create("ghost-lustre", spec("ghost-lustre", false), null);
            store.update("ghost-lustre", r -> r.withStatus(RunStatus.FAILED));
            String ghost = lustre(cloud, ours("ghost-lustre"));
            String theirs = lustre(cloud, new RunTags("ml-dev", "their-run").asMap());
            cloud.clock().advance(io.trainplane.local.sim.SimulatedFsx.FILE_SYSTEM_CREATING);

            JsonNode report = LocalJanitor.sweep(cloud);
            cloud.clock().advance(Duration.ofMinutes(10));
            cloud.reconcile();

            assertThat(report.path("runs").findValuesAsText("runId")).containsExactly("ghost-lustre");
            assertThat(report.path("runs").toString()).contains("fsx:file-system/" + ghost);
            assertThat(report.path("otherStacks").asInt()).isEqualTo(1);
            List<String> left = cloud.fsx().describeFileSystems(r -> {}).fileSystems().stream()
                    .map(f -> f.fileSystemId())
                    .toList();
            assertThat(left).containsExactly(theirs);
        }
    }

    static String lustre(LocalCloud cloud, Map<String, String> tags) {
        return cloud.fsx()
                .createFileSystem(r -> r.fileSystemType(software.amazon.awssdk.services.fsx.model.FileSystemType.LUSTRE)
                        .storageCapacity(1200)
                        .subnetIds(io.trainplane.local.sim.SimulatedNetwork.SUBNET_1A)
                        .lustreConfiguration(l -> l.deploymentType("SCRATCH_2"))
                        .tags(tags.entrySet().stream()
                                .map(t -> software.amazon.awssdk.services.fsx.model.Tag.builder()
                                        .key(t.getKey())
                                        .value(t.getValue())
                                        .build())
                                .toList()))
                .fileSystem()
                .fileSystemId();
    }

    /**
     * What carries this stack's name but not this deployment's id (a kept volume an earlier stack
     * of the same name left, or a file system someone tagged by hand) is reported, never deleted.
     */
    @Test
    void aResourceOfAnotherDeploymentOfTheSameStackNameIsReportedAndKept() throws IOException {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunStore store = StepWiring.runStore(cloud.clients());
            store.create("old-deploy", spec("old-deploy", false), null);
            store.update("old-deploy", r -> r.withStatus(RunStatus.SUCCEEDED));
            String earlier = fileSystem(
                    cloud,
                    "earlier-volume",
                    new RunTags(LocalCloud.STACK, "old-deploy", "0e5c1d2a-1111-4222-8333-944455556666").asMap());
            String byHand = fileSystem(cloud, "by-hand", new RunTags(LocalCloud.STACK, "old-deploy").asMap());
            cloud.clock().advance(Duration.ofMinutes(20));
            cloud.reconcile();

            JsonNode report = LocalJanitor.sweep(cloud);
            cloud.reconcile();

            assertThat(report.path("runs")).isEmpty();
            assertThat(report.path("unaccountable").findValuesAsText("resource"))
                    .containsExactlyInAnyOrder("efs:file-system/" + earlier, "efs:file-system/" + byHand);
            assertThat(report.path("unaccountable").toString())
                    .contains("for its deployment 0e5c1d2a-1111-4222-8333-944455556666", "without trainplane:stack-id");
            assertThat(cloud.awsResources())
                    .extracting(r -> r.ref())
                    .contains("efs:file-system/" + earlier, "efs:file-system/" + byHand);
        }
    }

    @Test
    void anOrphanedClustersSystemNodeGroupIsAdoptedUnderItsOwnEntryAndGoesWithTheWorkers() throws IOException {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunStore store = StepWiring.runStore(cloud.clients());
            store.create("done-run", spec("done-run", false), null);
            store.update("done-run", r -> r.withStatus(RunStatus.SUCCEEDED));
            cluster(cloud, "tp-done-run-eks", "done-run");
            cloud.clock().advance(Duration.ofMinutes(20));
            cloud.reconcile();
            Names names = new Names("done-run");
            for (String nodegroup : List.of(names.nodeGroupName(), names.systemNodeGroupName())) {
                cloud.eks().createNodegroup(r -> r.clusterName("tp-done-run-eks")
                        .nodegroupName(nodegroup)
                        .nodeRole("arn:aws:iam::000000000000:role/x")
                        .subnets(SUBNETS)
                        .tags(ours("done-run")));
            }
            cloud.clock().advance(Duration.ofMinutes(5));
            cloud.reconcile();

            JsonNode report = LocalJanitor.sweep(cloud);
            cloud.reconcile();

            assertThat(report.path("runs").get(0).path("resources"))
                    .extracting(JsonNode::asText)
                    .contains(
                            "eks:nodegroup/" + names.nodeGroupName(),
                            "eks:nodegroup/" + names.systemNodeGroupName(),
                            "eks:cluster/tp-done-run-eks");
            // Both in one cleanup: a second node group under the workers' entry would have waited
            // for the next sweep, and the cluster with it.
            assertThat(cloud.awsResources()).extracting(r -> r.ref()).noneMatch(ref -> ref.contains("tp-done-run"));
            assertThat(store.get("done-run").resources().list(RunResources.CLEANUP_DELETED))
                    .contains(
                            "eks:nodegroup/" + names.nodeGroupName(),
                            "eks:nodegroup/" + names.systemNodeGroupName(),
                            "eks:cluster/tp-done-run-eks");
        }
    }
}
