package io.trainplane.workflow;

import static io.trainplane.workflow.ResourceKind.CLUSTER;
import static io.trainplane.workflow.ResourceKind.FILE_SYSTEM;
import static io.trainplane.workflow.ResourceKind.KUBERNETES_OBJECTS;
import static io.trainplane.workflow.ResourceKind.LAUNCH_TEMPLATE;
import static io.trainplane.workflow.ResourceKind.LOG_GROUP;
import static io.trainplane.workflow.ResourceKind.LUSTRE_FILE_SYSTEM;
import static io.trainplane.workflow.ResourceKind.MOUNT_TARGETS;
import static io.trainplane.workflow.ResourceKind.MOUNT_TARGET_ACCESS;
import static io.trainplane.workflow.ResourceKind.NODE_GROUP;
import static io.trainplane.workflow.ResourceKind.PLACEMENT_GROUP;
import static io.trainplane.workflow.ResourceKind.POD_IDENTITY;
import static io.trainplane.workflow.ResourceKind.SYSTEM_LAUNCH_TEMPLATE;
import static io.trainplane.workflow.ResourceKind.SYSTEM_NODE_GROUP;
import static io.trainplane.workflow.ResourceKind.WARM_NODES;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.aws.Deletion;
import io.trainplane.core.Json;
import io.trainplane.core.TerminalException;
import io.trainplane.core.TransientException;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.spec.RunSpecs;
import io.trainplane.workflow.TeardownOrder.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The teardown order derived from {@link ResourceKind}'s declaration, and what one pass does when
 * a delete is refused, still under way, or kept: over a scripted cloud that answers each kind's
 * delete as told and notes the order it was asked in.
 */
class TeardownPlanTest {
    static final String CLUSTER_NAME = "tp-quickstart-eks";
    static final String LOG_GROUP_NAME = "/aws/eks/tp-quickstart-eks/cluster";

    static RunRecord run(boolean keepCluster, boolean keepVolume) throws IOException {
        ObjectNode spec = (ObjectNode) Json.read(Files.readString(Path.of("examples/quickstart.json")));
        ((ObjectNode) spec.get("cleanup")).put("keepCluster", keepCluster).put("keepVolume", keepVolume);
        return RunRecord.newRun("quickstart", Json.write(RunSpecs.normalize(Json.write(spec))), null, Instant.EPOCH);
    }

    /** What a create-mode run with an EFA node group records by the time it trains. */
    static RunRecord everything(RunRecord run) {
        return run.withResource(RunResources.LOG_GROUP, LOG_GROUP_NAME)
                .withResource(RunResources.LOG_GROUP_REQUEST, "log-group-request")
                .withResource(RunResources.EKS_CLUSTER, CLUSTER_NAME)
                .withResource(RunResources.KUBERNETES_CLUSTER, CLUSTER_NAME)
                .withResource(RunResources.PLACEMENT_GROUP, "placement-group-request")
                .withResource(RunResources.LAUNCH_TEMPLATE, "launch-template-request")
                .withResource(RunResources.SYSTEM_LAUNCH_TEMPLATE, "system-launch-template-request")
                .withResource(RunResources.NODE_GROUP, "tp-quickstart-nodes")
                .withResource(RunResources.SYSTEM_NODE_GROUP, "tp-quickstart-system")
                .withResource(RunResources.FILE_SYSTEM_TOKEN, "tp-quickstart-efs")
                .withResource(RunResources.FILE_SYSTEM, "fs-1")
                .withResource(RunResources.NAMESPACE, "tp-quickstart");
    }

    /** A cloud whose deletes answer as scripted (Gone unless told otherwise), and the run record it keeps. */
    static final class ScriptedCloud {
        RunRecord stored;
        final List<ResourceKind> asked = new ArrayList<>();
        final Map<ResourceKind, Supplier<Deletion>> answers = new EnumMap<>(ResourceKind.class);

        ScriptedCloud(RunRecord stored) {
            this.stored = stored;
        }

        ScriptedCloud answer(ResourceKind kind, Supplier<Deletion> answer) {
            answers.put(kind, answer);
            return this;
        }

        /** One pass, as TeardownStep makes it: over the record as it is now. */
        TeardownPlan pass() {
            asked.clear();
            RunRecord now = stored;
            return new TeardownPlan(now, kind -> held(now.resources(), kind), change -> stored = change.apply(stored));
        }

        /** A kind is held when the record lists one of its entries (the mount targets: the file system's). */
        private Optional<ResourceLifecycles.Held> held(RunResources r, ResourceKind kind) {
            List<RunResources.Key<?>> keys = kind == MOUNT_TARGETS ? FILE_SYSTEM.keys() : kind.keys();
            if (keys.stream().noneMatch(r::has)) {
                return Optional.empty();
            }
            return Optional.of(new ResourceLifecycles.Held() {
                @Override
                public List<String> named() {
                    return kind.named(r).isEmpty() ? List.of(kind.name()) : kind.named(r);
                }

                @Override
                public List<String> left() {
                    return named();
                }

                @Override
                public Deletion delete() {
                    asked.add(kind);
                    return answers.getOrDefault(kind, Deletion.Gone::new).get();
                }
            });
        }
    }

    @Test
    void theOrderIsDerivedFromTheDeclaredDependencies() {
        System.out.println("teardown order: " + TeardownPlan.ORDER.order());
        System.out.println("teardown waves: " + TeardownPlan.ORDER.waves());
        assertThat(TeardownPlan.ORDER.waves())
                .containsExactly(
                        List.of(KUBERNETES_OBJECTS, WARM_NODES),
                        List.of(
                                POD_IDENTITY,
                                MOUNT_TARGET_ACCESS,
                                MOUNT_TARGETS,
                                LUSTRE_FILE_SYSTEM,
                                NODE_GROUP,
                                SYSTEM_NODE_GROUP),
                        List.of(FILE_SYSTEM, LAUNCH_TEMPLATE, SYSTEM_LAUNCH_TEMPLATE, PLACEMENT_GROUP),
                        List.of(CLUSTER),
                        List.of(LOG_GROUP));
    }

    @Test
    void aCreateModeRunWithEverythingGoesInOnePassInDependencyOrder() throws IOException {
        ScriptedCloud cloud = new ScriptedCloud(everything(run(false, false)));
        TeardownPlan plan = cloud.pass();

        assertThat(plan.advance()).isEmpty();
        assertThat(cloud.asked)
                .containsExactly(
                        KUBERNETES_OBJECTS,
                        MOUNT_TARGETS,
                        FILE_SYSTEM,
                        NODE_GROUP,
                        SYSTEM_NODE_GROUP,
                        LAUNCH_TEMPLATE,
                        SYSTEM_LAUNCH_TEMPLATE,
                        PLACEMENT_GROUP,
                        CLUSTER,
                        LOG_GROUP);
        assertThat(plan.failures()).isEmpty();
        assertThat(plan.progressing()).isFalse();
        assertThat(CleanupRecord.leftovers(cloud.stored)).isEmpty();
        assertThat(cloud.stored.resources().asMap())
                .containsOnlyKeys(RunResources.KUBERNETES_CLUSTER.name(), RunResources.CLEANUP_DELETED.name());
        assertThat(CleanupRecord.deleted(cloud.stored))
                .containsExactly(
                        "kubernetes:Namespace/tp-quickstart",
                        "efs:file-system/fs-1",
                        "eks:nodegroup/tp-quickstart-nodes",
                        "eks:nodegroup/tp-quickstart-system",
                        "cloudcontrol:AWS::EC2::LaunchTemplate/launch-template-request",
                        "cloudcontrol:AWS::EC2::LaunchTemplate/system-launch-template-request",
                        "cloudcontrol:AWS::EC2::PlacementGroup/placement-group-request",
                        "eks:cluster/" + CLUSTER_NAME,
                        "logs:log-group/" + LOG_GROUP_NAME);
    }

    @Test
    void aRefusedNodeGroupHoldsBackOnlyWhatDependsOnIt() throws IOException {
        ScriptedCloud cloud = new ScriptedCloud(everything(run(false, false))).answer(NODE_GROUP, () -> {
            throw new TerminalException(Failures.ACCESS_DENIED, "not authorized to perform eks:DeleteNodegroup");
        });
        TeardownPlan plan = cloud.pass();
        List<String> remaining = plan.advance();

        assertThat(cloud.asked)
                .as("the volume's chain goes on, and the other node group with its template")
                .containsExactly(
                        KUBERNETES_OBJECTS,
                        MOUNT_TARGETS,
                        FILE_SYSTEM,
                        NODE_GROUP,
                        SYSTEM_NODE_GROUP,
                        SYSTEM_LAUNCH_TEMPLATE);
        assertThat(plan.outcomes())
                .containsEntry(NODE_GROUP, Outcome.REFUSED)
                .containsEntry(FILE_SYSTEM, Outcome.GONE)
                .containsEntry(LAUNCH_TEMPLATE, Outcome.HELD)
                .containsEntry(SYSTEM_LAUNCH_TEMPLATE, Outcome.GONE)
                .containsEntry(PLACEMENT_GROUP, Outcome.HELD)
                .containsEntry(CLUSTER, Outcome.HELD)
                .containsEntry(LOG_GROUP, Outcome.HELD);
        assertThat(plan.failures())
                .singleElement()
                .asString()
                .startsWith("EKS node group: AccessDeniedException: not authorized to perform eks:DeleteNodegroup");
        assertThat(plan.progressing())
                .as("nothing else is moving: cleanup gives up")
                .isFalse();
        assertThat(remaining)
                .containsExactlyInAnyOrder(
                        "eks:nodegroup/" + CLUSTER_NAME + "/tp-quickstart-nodes",
                        "cloudcontrol:request/launch-template-request",
                        "cloudcontrol:request/placement-group-request",
                        "eks:cluster/" + CLUSTER_NAME,
                        "logs:log-group/" + LOG_GROUP_NAME);
        assertThat(cloud.stored.resources().has(RunResources.FILE_SYSTEM)).isFalse();
        assertThat(cloud.stored.resources().get(RunResources.NODE_GROUP)).contains("tp-quickstart-nodes");
    }

    @Test
    void theClusterWaitsForItsNodeGroupAndGoesTheNextPassOnceItIsGone() throws IOException {
        ScriptedCloud cloud =
                new ScriptedCloud(everything(run(false, false))).answer(NODE_GROUP, Deletion.Deleting::new);
        TeardownPlan first = cloud.pass();
        assertThat(first.advance()).contains("eks:cluster/" + CLUSTER_NAME);
        assertThat(first.progressing()).isTrue();
        assertThat(first.failures()).isEmpty();
        assertThat(first.outcomes()).containsEntry(NODE_GROUP, Outcome.WAITING).containsEntry(CLUSTER, Outcome.HELD);

        cloud.answer(NODE_GROUP, Deletion.Gone::new);
        TeardownPlan second = cloud.pass();
        assertThat(second.advance()).isEmpty();
        assertThat(cloud.asked)
                .as("what the first pass deleted is forgotten")
                .containsExactly(NODE_GROUP, LAUNCH_TEMPLATE, PLACEMENT_GROUP, CLUSTER, LOG_GROUP);
    }

    @Test
    void theClusterWaitsForTheSystemNodeGroupAndItsTemplateTooButTheWorkersTemplateDoesNot() throws IOException {
        ScriptedCloud cloud =
                new ScriptedCloud(everything(run(false, false))).answer(SYSTEM_NODE_GROUP, Deletion.Deleting::new);
        TeardownPlan first = cloud.pass();
        assertThat(first.advance())
                .contains("eks:nodegroup/" + CLUSTER_NAME + "/tp-quickstart-system", "eks:cluster/" + CLUSTER_NAME);
        assertThat(first.outcomes())
                .containsEntry(SYSTEM_NODE_GROUP, Outcome.WAITING)
                .containsEntry(NODE_GROUP, Outcome.GONE)
                .containsEntry(LAUNCH_TEMPLATE, Outcome.GONE)
                .containsEntry(SYSTEM_LAUNCH_TEMPLATE, Outcome.HELD)
                .containsEntry(CLUSTER, Outcome.HELD);

        cloud.answer(SYSTEM_NODE_GROUP, Deletion.Gone::new);
        TeardownPlan second = cloud.pass();
        assertThat(second.advance()).isEmpty();
        assertThat(cloud.asked).containsExactly(SYSTEM_NODE_GROUP, SYSTEM_LAUNCH_TEMPLATE, CLUSTER, LOG_GROUP);
    }

    @Test
    void objectsStillInTheClusterHoldBackEverythingElse() throws IOException {
        ScriptedCloud cloud = new ScriptedCloud(everything(run(false, false))).answer(KUBERNETES_OBJECTS, () -> {
            throw new TransientException("the API server is busy");
        });
        TeardownPlan plan = cloud.pass();
        List<String> remaining = plan.advance();

        assertThat(cloud.asked).containsExactly(KUBERNETES_OBJECTS);
        assertThat(plan.progressing()).as("a transient failure is tried again").isTrue();
        assertThat(plan.failures()).isEmpty();
        assertThat(remaining)
                .contains("kubernetes:Namespace/tp-quickstart", "efs:file-system/fs-1", "eks:cluster/" + CLUSTER_NAME);
    }

    @Test
    void aKeptClusterIsNeverTouchedAndHoldsNothingBack() throws IOException {
        ScriptedCloud cloud = new ScriptedCloud(everything(run(true, false)));
        TeardownPlan plan = cloud.pass();

        assertThat(plan.advance()).isEmpty();
        assertThat(cloud.asked).containsExactly(KUBERNETES_OBJECTS, MOUNT_TARGETS, FILE_SYSTEM);
        RunResources left = cloud.stored.resources();
        assertThat(left.get(RunResources.EKS_CLUSTER)).contains(CLUSTER_NAME);
        assertThat(left.get(RunResources.NODE_GROUP)).isPresent();
        assertThat(left.get(RunResources.LAUNCH_TEMPLATE)).isPresent();
        assertThat(left.get(RunResources.SYSTEM_LAUNCH_TEMPLATE)).isPresent();
        assertThat(left.get(RunResources.LOG_GROUP)).isPresent();
        assertThat(CleanupRecord.kept(cloud.stored))
                .contains(
                        "eks:cluster/" + CLUSTER_NAME,
                        "eks:nodegroup/tp-quickstart-nodes",
                        "logs:log-group/" + LOG_GROUP_NAME);
        assertThat(CleanupRecord.finished(cloud.stored.withStatus(io.trainplane.runs.RunStatus.FAILED)))
                .isTrue();
    }

    @Test
    void anAdoptedFileSystemIsNeverTouchedButTheClustersGroupComesOffItsMountTargetsFirst() throws IOException {
        RunRecord adopted = everything(run(false, false))
                .withoutResource(RunResources.FILE_SYSTEM_TOKEN)
                .withResource(RunResources.FILE_SYSTEM, "fs-shared")
                .withResource(RunResources.FILE_SYSTEM_ADOPTED, true)
                .withResource(RunResources.MOUNT_TARGET_GROUP, "sg-cluster")
                .withResource(RunResources.MOUNT_TARGETS_OPENED, List.of("fsmt-1", "fsmt-2"));
        ScriptedCloud cloud = new ScriptedCloud(adopted);
        assertThat(cloud.pass().advance()).isEmpty();
        assertThat(cloud.asked)
                .containsExactly(
                        KUBERNETES_OBJECTS,
                        MOUNT_TARGET_ACCESS,
                        NODE_GROUP,
                        SYSTEM_NODE_GROUP,
                        LAUNCH_TEMPLATE,
                        SYSTEM_LAUNCH_TEMPLATE,
                        PLACEMENT_GROUP,
                        CLUSTER,
                        LOG_GROUP);
        assertThat(cloud.stored.resources().get(RunResources.FILE_SYSTEM)).contains("fs-shared");
        assertThat(cloud.stored.resources().has(RunResources.MOUNT_TARGETS_OPENED))
                .isFalse();
        assertThat(CleanupRecord.kept(cloud.stored)).containsExactly("efs:file-system/fs-shared");

        // The group cannot come off yet: the cluster waits for it, its node group does not.
        ScriptedCloud stuck = new ScriptedCloud(adopted).answer(MOUNT_TARGET_ACCESS, () -> {
            throw new TransientException("mount target fsmt-1 is changing state");
        });
        TeardownPlan plan = stuck.pass();
        plan.advance();
        assertThat(stuck.asked)
                .containsExactly(
                        KUBERNETES_OBJECTS,
                        MOUNT_TARGET_ACCESS,
                        NODE_GROUP,
                        SYSTEM_NODE_GROUP,
                        LAUNCH_TEMPLATE,
                        SYSTEM_LAUNCH_TEMPLATE,
                        PLACEMENT_GROUP);
        assertThat(plan.outcomes()).containsEntry(CLUSTER, Outcome.HELD).containsEntry(LOG_GROUP, Outcome.HELD);
    }
}
