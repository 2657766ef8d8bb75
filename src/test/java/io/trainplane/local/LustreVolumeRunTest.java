package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.TestTime;
import io.trainplane.local.iam.AuditEntry;
import io.trainplane.local.iam.StackPolicies;
import io.trainplane.local.iam.StackPrincipals;
import io.trainplane.local.iam.StackTemplate;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import software.amazon.awssdk.services.fsx.model.CreateFileSystemLustreConfiguration;
import software.amazon.awssdk.services.fsx.model.CreateFileSystemRequest;
import software.amazon.awssdk.services.fsx.model.FileSystemType;
import software.amazon.awssdk.services.fsx.model.LustreDeploymentType;

/**
 * examples/quickstart-fsx.json on the twin, linked to S3 (the local stack's LustreDataBuckets names
 * {@value #LINKED_BUCKET}): an FSx for Lustre file system linked to S3 is created,
 * mounted through the FSx CSI driver and deleted, nothing left; every FSx call it makes is refused
 * and throttled in turn (the call log says which), and every template statement only it needs is
 * needed.
 */
class LustreVolumeRunTest {
    /** The bucket the local stack grants runs to link (StackTemplate.LOCAL_PARAMETERS' LustreDataBuckets). */
    static final String LINKED_BUCKET = "trainplane-example-data";

    static String spec;

    /** The example (which links no bucket, so that it runs on a default deploy) linked to {@code bucket}. */
    static String linkedTo(String example, String bucket) {
        ObjectNode linked = (ObjectNode) io.trainplane.core.Json.read(example);
        ((ObjectNode) linked.path("volume"))
                .put("s3ImportPath", "s3://" + bucket + "/cifar10")
                .put("s3ExportPath", "s3://" + bucket + "/runs/tp-quickstart-fsx/model");
        return io.trainplane.core.Json.write(linked);
    }

    static RunReport ok;
    static List<AuditEntry> audit;

    @BeforeAll
    static void realRun() throws IOException {
        spec = linkedTo(Files.readString(Path.of("examples/quickstart-fsx.json")), LINKED_BUCKET);
        // The example's run under template.yaml's policies (LocalCloud's own), which ExamplesUnderIamTest
        // judges too: made once (ExampleRuns).
        ExampleRuns.Outcome run = ExampleRuns.of(RunSpecs.normalize(spec));
        ok = run.report();
        audit = run.audit();
        assertThat(ok.status()).as(ok.error() + " " + ok.cause()).isEqualTo("SUCCEEDED");
    }

    static RunReport run(Faults faults) {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            return new LocalRun(cloud, faults, e -> {}).execute(RunSpecs.normalize(spec), "quickstart-fsx");
        }
    }

    @Test
    void theFileSystemIsCreatedMountedAndDeletedAndNothingIsLeft() {
        assertThat(ok.calls()).containsKeys("fsx:CreateFileSystem", "fsx:DescribeFileSystems", "fsx:DeleteFileSystem");
        // The S3 paths are two data repository associations (import at /data, export at /model), waited for.
        assertThat(ok.calls())
                .containsEntry("fsx:CreateDataRepositoryAssociation", 2)
                .containsKey("fsx:DescribeDataRepositoryAssociations");
        assertThat(ok.calls()).doesNotContainKeys("efs:CreateFileSystem");
        assertThat(ok.resources().created())
                .anyMatch(r -> r.startsWith("fsx:file-system/fs-"))
                .contains("eks:addon/tp-quickstart-fsx-eks/aws-fsx-csi-driver");
        assertThat(ok.resources().remaining()).isEmpty();
        assertThat(audit).filteredOn(e -> !e.decision().allowed()).isEmpty();
        // The S3 link is judged: the data source's service-linked role and the bucket.
        assertThat(audit)
                .extracting(AuditEntry::action)
                .contains("fsx:CreateFileSystem", "fsx:TagResource", "iam:PutRolePolicy", "s3:ListBucket");
    }

    @Test
    void aBucketTheStackDoesNotGrantIsRefusedBeforeAnythingIsCreatedNamingTheParameter() throws IOException {
        String elsewhere = linkedTo(Files.readString(Path.of("examples/quickstart-fsx.json")), "someone-elses-bucket");
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunReport r = new LocalRun(cloud, Faults.none(), e -> {})
                    .execute(RunSpecs.normalize(elsewhere), "quickstart-fsx");

            assertThat(r.status()).isEqualTo("FAILED");
            assertThat(r.failedState()).isEqualTo("StartRun");
            assertThat(r.cause())
                    .contains("/volume/s3ImportPath", "/volume/s3ExportPath", "'someone-elses-bucket'")
                    .contains("LustreDataBuckets=" + LINKED_BUCKET + ",someone-elses-bucket");
            assertThat(r.resources().created()).isEmpty();
        }
    }

    /** A Lustre file system made outside a run, tagged {@code tags}. */
    static String lustre(LocalCloud cloud, java.util.Map<String, String> tags) {
        String id = cloud.fsx()
                .createFileSystem(CreateFileSystemRequest.builder()
                        .fileSystemType(FileSystemType.LUSTRE)
                        .storageCapacity(1200)
                        .subnetIds(io.trainplane.local.sim.SimulatedNetwork.SUBNET_1A)
                        .lustreConfiguration(CreateFileSystemLustreConfiguration.builder()
                                .deploymentType(LustreDeploymentType.SCRATCH_2)
                                .build())
                        .tags(tags.entrySet().stream()
                                .map(t -> software.amazon.awssdk.services.fsx.model.Tag.builder()
                                        .key(t.getKey())
                                        .value(t.getValue())
                                        .build())
                                .toList())
                        .build())
                .fileSystem()
                .fileSystemId();
        cloud.clock().advance(io.trainplane.local.sim.SimulatedFsx.FILE_SYSTEM_CREATING);
        return id;
    }

    static RunReport adopting(LocalCloud cloud, String fileSystemId, String runId) {
        ObjectNode adopting = (ObjectNode) RunSpecs.normalize(spec);
        adopting.put("runId", runId);
        adopting.remove("output"); // the default: the run's own prefix
        ObjectNode volume =
                adopting.putObject("volume").put("type", "fsx-lustre").put("fileSystemId", fileSystemId);
        assertThat(volume.size()).isEqualTo(2);
        return new LocalRun(cloud, Faults.none(), e -> {}).execute(RunSpecs.normalize(adopting.toString()), runId);
    }

    /**
     * A file system a finished run kept is adopted, mounted and never deleted; one this stack
     * neither made nor lists in AdoptableFileSystemIds is refused before anything is created, and
     * left as it was.
     */
    @Test
    void anAdoptedFileSystemIsMountedAndNeverDeleted() throws IOException {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            String foreign = lustre(cloud, java.util.Map.of());
            RunReport refused = adopting(cloud, foreign, "adopts-foreign");
            assertThat(refused.status()).isEqualTo("FAILED");
            assertThat(refused.error()).as(refused.cause()).isEqualTo("FileSystemNotAdoptable");
            assertThat(cloud.fsx().available(foreign)).isTrue();
            assertThat(refused.resources().created())
                    .as("refused before anything was created")
                    .isEmpty();

            String id = lustre(cloud, LocalCloud.runTags("keeper").asMap());
            var store = io.trainplane.workflow.StepWiring.runStore(cloud.clients());
            ObjectNode keeper = (ObjectNode) RunSpecs.normalize(spec);
            keeper.put("runId", "keeper");
            keeper.remove("output");
            ((ObjectNode) keeper.path("cleanup")).put("keepVolume", true);
            store.create("keeper", io.trainplane.core.Json.write(keeper), null);
            store.update("keeper", k -> k.withResource(io.trainplane.runs.RunResources.LUSTRE_FILE_SYSTEM, id)
                    .withStatus(io.trainplane.runs.RunStatus.SUCCEEDED));
            RunReport r = adopting(cloud, id, "adopts-kept");
            assertThat(r.status()).as(r.error() + " " + r.cause()).isEqualTo("SUCCEEDED");
            // The creates are the test's own, above.
            assertThat(r.calls()).containsEntry("fsx:CreateFileSystem", 2).doesNotContainKey("fsx:DeleteFileSystem");
            assertThat(r.resources().remaining())
                    .as("only the adopted file system, kept as the run found it")
                    .containsExactly("fsx:file-system/" + id);
            assertThat(cloud.fsx().available(id)).isTrue();
        }
    }

    static Stream<String> fsxCalls() {
        return ok.calls().keySet().stream().filter(op -> op.startsWith("fsx:"));
    }

    @TestFactory
    Stream<DynamicTest> aRefusedFsxCallFailsTheRunAndLeavesOnlyWhatItCouldNotDelete() {
        return fsxCalls()
                .map(op -> DynamicTest.dynamicTest("--fault " + op, () -> {
                    RunReport r = run(new Faults(Set.of(), Set.of(), Set.of(op), Set.of()));
                    assertThat(r.status()).isEqualTo("FAILED");
                    if (op.equals("fsx:CreateFileSystem")) {
                        assertThat(r.resources().created()).noneMatch(c -> c.startsWith("fsx:"));
                    }
                    // Without DescribeFileSystems or DeleteFileSystem the file system stays, and the cluster
                    // whose security group it uses with it (and what goes after the cluster).
                    boolean deletePath = op.contains("Delete") || op.contains("Describe");
                    assertThat(r.resources().remaining())
                            .as("left behind when " + op + " fails")
                            .allSatisfy(left -> assertThat(deletePath
                                            && (left.startsWith("fsx:")
                                                    || left.startsWith("eks:")
                                                    || left.startsWith("logs:")))
                                    .as(left)
                                    .isTrue());
                }));
    }

    @TestFactory
    Stream<DynamicTest> aThrottledFsxCallIsRetriedAndTheRunSucceeds() {
        return fsxCalls()
                .map(op -> DynamicTest.dynamicTest("--throttle " + op, () -> {
                    RunReport r = run(new Faults(Set.of(), Set.of(), Set.of(), Set.of(op)));
                    assertThat(r.status()).isEqualTo("SUCCEEDED");
                    assertThat(r.resources().remaining()).isEmpty();
                }));
    }

    /** The template statements that allowed the FSx run's calls and that name FSx for Lustre. */
    static Stream<String> lustreStatements() {
        Set<String> used = new TreeSet<>();
        audit.stream()
                .map(AuditEntry::statement)
                .filter(Objects::nonNull)
                .filter(s -> s.contains("Lustre"))
                .forEach(used::add);
        return used.stream();
    }

    @TestFactory
    Stream<DynamicTest> withoutAnFsxStatementTheRunFailsNamingTheDeniedAction() {
        assertThat(lustreStatements()).hasSizeGreaterThanOrEqualTo(5);
        return lustreStatements()
                .map(statement -> DynamicTest.dynamicTest(statement, () -> {
                    StackPolicies without = StackTemplate.local().policies().without(statement);
                    try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
                        cloud.iam().judgeBy(StackPrincipals.authorizer(without));
                        RunReport r = new LocalRun(cloud, Faults.none(), e -> {})
                                .execute(RunSpecs.normalize(spec), "quickstart-fsx");
                        List<AuditEntry> denied = cloud.iam().entries().stream()
                                .filter(e -> !e.decision().allowed())
                                .toList();
                        assertThat(denied).isNotEmpty();
                        assertThat(r.status()).isEqualTo("FAILED");
                        assertThat(r.error() + " " + r.cause())
                                .contains(denied.getFirst().action());
                        if (statement.contains("Delete") || statement.contains("Describe")) {
                            // Cleanup cannot delete the file system, nor the cluster whose group it uses.
                            assertThat(r.resources().remaining())
                                    .anyMatch(left -> left.startsWith("fsx:file-system/"))
                                    .allMatch(left -> left.startsWith("fsx:")
                                            || left.startsWith("eks:")
                                            || left.startsWith("logs:"));
                        } else {
                            assertThat(r.resources().remaining()).isEmpty();
                        }
                    }
                }));
    }
}
