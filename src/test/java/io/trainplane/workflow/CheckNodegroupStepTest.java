package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.ec2.ReservedCapacity;
import io.trainplane.aws.eks.EksNodegroups;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.local.sim.SimulatedCloudControl;
import io.trainplane.local.sim.SimulatedEks;
import io.trainplane.runs.RunResources;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.eks.model.Cluster;
import software.amazon.awssdk.services.eks.model.ClusterStatus;
import software.amazon.awssdk.services.eks.model.DescribeClusterRequest;
import software.amazon.awssdk.services.eks.model.DescribeClusterResponse;
import software.amazon.awssdk.services.eks.model.DescribeNodegroupRequest;
import software.amazon.awssdk.services.eks.model.DescribeNodegroupResponse;
import software.amazon.awssdk.services.eks.model.Issue;
import software.amazon.awssdk.services.eks.model.ListNodegroupsRequest;
import software.amazon.awssdk.services.eks.model.ListNodegroupsResponse;
import software.amazon.awssdk.services.eks.model.Nodegroup;
import software.amazon.awssdk.services.eks.model.NodegroupHealth;
import software.amazon.awssdk.services.eks.model.NodegroupStatus;

/**
 * CheckNodegroup's looks once the run's cluster is ACTIVE on the simulated account: the launch
 * template asked for and waited for, then the node group asked for once and waited for until
 * ACTIVE, with the system node group CreateNodegroup asked for (asked again when that was lost); a node group EKS could not create (an EKS answer built by hand) ends the run with the
 * health issue and what to do about it.
 */
class CheckNodegroupStepTest {
    final StartedRun run = new StartedRun("check-nodegroup");

    @AfterEach
    void close() {
        run.close();
    }

    Supplier<EksNodegroups> nodegroups() {
        return () -> new EksNodegroups(run.cloud.eks());
    }

    CheckNodegroupStep step() {
        return new CheckNodegroupStep(
                run.store,
                nodegroups(),
                run.ec2(),
                run.eksClusters(),
                () -> new ReservedCapacity(run.cloud.cloudControl()),
                run.settings);
    }

    /** What CreateNodegroup does first: the system node group, whose launch template CheckCluster asked for. */
    void systemNodegroupAskedFor() {
        assertThat(NodegroupPrerequisites.createSystemNodegroup(
                        RunContext.from(run.state),
                        run.store,
                        run.ec2(),
                        nodegroups(),
                        run.settings,
                        run.settings::network))
                .as("the system launch template is ready")
                .isEmpty();
    }

    @Test
    void itAsksForTheLaunchTemplateThenTheNodeGroupOnceAndWaitsUntilItIsActive() {
        run.clusterActive();
        systemNodegroupAskedFor();

        // The workers' node group not asked for yet: its launch template is; a reservation is not looked at.
        JsonNode first = new CheckNodegroupStep(
                        run.store,
                        nodegroups(),
                        run.ec2(),
                        run.eksClusters(),
                        StartedRun.notAskedFor("the reserved capacity"),
                        run.settings)
                .run(run.state);
        assertThat(first.path("done").asBoolean()).isFalse();
        assertThat(first.path("waitSeconds").asInt()).isEqualTo(CheckNodegroupStep.PREREQUISITE_WAIT_SECONDS);
        assertThat(run.record().resources().has(RunResources.LAUNCH_TEMPLATE)).isTrue();
        assertThat(run.record().resources().has(RunResources.NODE_GROUP)).isFalse();

        JsonNode templateCreating = step().run(run.state);
        assertThat(templateCreating.path("done").asBoolean()).isFalse();
        assertThat(templateCreating.path("waitSeconds").asInt())
                .isEqualTo(CheckNodegroupStep.PREREQUISITE_WAIT_SECONDS);
        assertThat(run.calls("eks:CreateNodegroup"))
                .as("the system node group's")
                .isEqualTo(1);

        run.advance(SimulatedCloudControl.OPERATION);
        JsonNode creating = step().run(run.state);
        assertThat(creating.path("done").asBoolean()).isFalse();
        assertThat(creating.path("waitSeconds").asInt()).isEqualTo(CheckNodegroupStep.WAIT_SECONDS);
        assertThat(creating.path("detail").asText()).contains("CREATING");
        assertThat(run.record().resources().get(RunResources.NODE_GROUP))
                .contains(run.names().nodeGroupName());

        run.advance(Duration.ofMinutes(1));
        assertThat(step().run(run.state).path("done").asBoolean()).isFalse();

        run.advance(SimulatedEks.NODEGROUP_CREATING);
        JsonNode active = step().run(run.state);
        assertThat(active.path("done").asBoolean()).isTrue();
        assertThat(active.path("waitSeconds").asInt()).isZero();
        assertThat(run.calls("eks:CreateNodegroup"))
                .as("each node group asked for once")
                .isEqualTo(2);
        assertThat(run.calls("cloudcontrol:CreateResource"))
                .as("the log group and the two launch templates")
                .isEqualTo(3);
    }

    @Test
    void waitingForTheSystemNodesItIsDoneOnceTheyAreActiveAndTheWorkersAreAskedFor() {
        run.clusterActive();
        systemNodegroupAskedFor();
        JsonNode systemOnly = ((com.fasterxml.jackson.databind.node.ObjectNode) run.state.deepCopy())
                .put(CheckNodegroupStep.WAIT_FOR, CheckNodegroupStep.SYSTEM_NODES);

        // The workers' launch template asked for, then ready: their node group is asked for.
        assertThat(step().run(systemOnly).path("done").asBoolean()).isFalse();
        run.advance(SimulatedCloudControl.OPERATION);
        assertThat(step().run(systemOnly).path("done").asBoolean())
                .as("the system node group is still CREATING")
                .isFalse();
        assertThat(run.record().resources().has(RunResources.NODE_GROUP)).isTrue();

        run.advance(SimulatedEks.NODEGROUP_CREATING.minus(SimulatedCloudControl.OPERATION));
        JsonNode system = step().run(systemOnly);
        assertThat(system.path("done").asBoolean())
                .as("the system node group ACTIVE, the workers' asked for (still CREATING)")
                .isTrue();
        assertThat(step().run(run.state).path("done").asBoolean())
                .as("waiting for every node: the workers' is not ACTIVE yet")
                .isFalse();

        run.advance(SimulatedCloudControl.OPERATION);
        assertThat(step().run(run.state).path("done").asBoolean()).isTrue();
    }

    @Test
    void theSystemNodeGroupWaitsForItsOwnLaunchTemplateWhichCarriesTheMetadataOptions() {
        // The cluster as CheckCluster makes it, but with no system launch template asked for
        // (a record written before it did): CheckNodegroup asks for it.
        RunContext context = RunContext.from(run.state);
        ClusterCreation.requestLogGroup(context, run.store, run.ec2(), run.settings);
        run.advance(SimulatedCloudControl.OPERATION);
        ClusterCreation.createCluster(context, run.store, run.eksClusters(), run.settings);
        run.advance(SimulatedEks.CLUSTER_CREATING);

        JsonNode waiting = step().run(run.state);
        assertThat(waiting.path("done").asBoolean()).isFalse();
        assertThat(waiting.path("waitSeconds").asInt()).isEqualTo(CheckNodegroupStep.PREREQUISITE_WAIT_SECONDS);
        assertThat(run.record().resources().has(RunResources.SYSTEM_LAUNCH_TEMPLATE))
                .isTrue();
        assertThat(run.record().resources().has(RunResources.SYSTEM_NODE_GROUP))
                .as("not before its launch template exists")
                .isFalse();
        assertThat(run.calls("eks:CreateNodegroup")).isZero();

        run.advance(SimulatedCloudControl.OPERATION);
        step().run(run.state);
        assertThat(run.calls("eks:CreateNodegroup"))
                .as("both, their templates ready")
                .isEqualTo(2);
        String templateId = run.cloud
                .eks()
                .describeNodegroup(r -> r.clusterName(run.names().clusterName())
                        .nodegroupName(run.names().systemNodeGroupName()))
                .nodegroup()
                .launchTemplate()
                .id();
        assertThat(run.cloud.cloudControl().launchTemplateData(templateId, null))
                .hasValueSatisfying(data -> assertThat(data.at("/MetadataOptions/HttpPutResponseHopLimit")
                                .asInt())
                        .isEqualTo(1))
                .hasValueSatisfying(
                        data -> assertThat(data.has("NetworkInterfaces")).isFalse());
        assertThat(run.calls("cloudcontrol:CreateResource"))
                .as("the log group, the system launch template, once, and the workers'")
                .isEqualTo(3);

        run.advance(SimulatedEks.NODEGROUP_CREATING);
        assertThat(step().run(run.state).path("done").asBoolean()).isTrue();
        assertThat(run.calls("eks:CreateNodegroup")).isEqualTo(2);
    }

    @Test
    void aSystemLaunchTemplateWhoseTokenWasLostIsTheSameTemplateAskedForAgain() {
        run.clusterActive();
        String token = run.record()
                .resources()
                .get(RunResources.SYSTEM_LAUNCH_TEMPLATE)
                .orElseThrow();
        run.store.update(run.runId, r -> r.withoutResource(RunResources.SYSTEM_LAUNCH_TEMPLATE));

        systemNodegroupAskedFor();
        assertThat(run.record().resources().get(RunResources.SYSTEM_LAUNCH_TEMPLATE))
                .as("the same client token: the same request")
                .contains(token);
        assertThat(run.cloud.inventory().stream().filter(ref -> ref.startsWith("ec2:launch-template/")))
                .hasSize(1);
    }

    @Test
    void aNodeGroupEksCouldNotCreateEndsTheRunWithTheHealthIssue() {
        String cluster = run.names().clusterName();
        String nodegroup = run.names().nodeGroupName();
        run.store.update(run.runId, r -> r.withResource(RunResources.NODE_GROUP, nodegroup)
                .withResource(RunResources.SYSTEM_NODE_GROUP, run.names().systemNodeGroupName()));
        EksClient eks = new NodegroupsEks(
                cluster,
                activeSystemNodegroup(),
                Nodegroup.builder()
                        .clusterName(cluster)
                        .nodegroupName(nodegroup)
                        .status(NodegroupStatus.CREATE_FAILED)
                        .health(NodegroupHealth.builder()
                                .issues(Issue.builder()
                                        .code("AsgInstanceLaunchFailures")
                                        .message("Could not launch On-Demand Instances. InsufficientInstanceCapacity")
                                        .resourceIds(List.of("eks-" + nodegroup))
                                        .build())
                                .build())
                        .build());

        CheckNodegroupStep step = new CheckNodegroupStep(
                run.store,
                () -> new EksNodegroups(eks),
                run.ec2(),
                run.eksClusters(),
                StartedRun.notAskedFor("the reserved capacity"),
                run.settings);

        assertThatThrownBy(() -> step.run(run.state))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.ResourceFailed))
                .hasMessageContaining("EKS node group " + nodegroup + " could not be created")
                .hasMessageContaining("AsgInstanceLaunchFailures: Could not launch On-Demand Instances")
                .hasMessageContaining("check the instance type's availability");
        assertThat(run.calls("cloudcontrol:CreateResource"))
                .as("no launch template asked for")
                .isZero();
    }

    @Test
    void aDegradedNodeGroupEndsTheRun() {
        String cluster = run.names().clusterName();
        String nodegroup = run.names().nodeGroupName();
        run.store.update(run.runId, r -> r.withResource(RunResources.NODE_GROUP, nodegroup)
                .withResource(RunResources.SYSTEM_NODE_GROUP, run.names().systemNodeGroupName()));
        EksClient eks = new NodegroupsEks(
                cluster,
                activeSystemNodegroup(),
                Nodegroup.builder()
                        .clusterName(cluster)
                        .nodegroupName(nodegroup)
                        .status(NodegroupStatus.DEGRADED)
                        .build());

        assertThatThrownBy(() -> new CheckNodegroupStep(
                                run.store,
                                () -> new EksNodegroups(eks),
                                run.ec2(),
                                run.eksClusters(),
                                StartedRun.notAskedFor("the reserved capacity"),
                                run.settings)
                        .run(run.state))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.ResourceFailed))
                .hasMessageContaining("is degraded")
                .hasMessageContaining("EKS reports no health issue");
    }

    @Test
    void aSystemNodeGroupEksCouldNotCreateEndsTheRunWhileTheWorkersNodeGroupIsStillCreating() {
        String cluster = run.names().clusterName();
        String system = run.names().systemNodeGroupName();
        String workers = run.names().nodeGroupName();
        run.store.update(run.runId, r -> r.withResource(RunResources.NODE_GROUP, workers)
                .withResource(RunResources.SYSTEM_NODE_GROUP, system));
        EksClient eks = new NodegroupsEks(
                cluster,
                Nodegroup.builder()
                        .clusterName(cluster)
                        .nodegroupName(system)
                        .status(NodegroupStatus.CREATE_FAILED)
                        .health(NodegroupHealth.builder()
                                .issues(Issue.builder()
                                        .code("AsgInstanceLaunchFailures")
                                        .message("Could not launch On-Demand Instances. InsufficientInstanceCapacity")
                                        .build())
                                .build())
                        .build(),
                Nodegroup.builder()
                        .clusterName(cluster)
                        .nodegroupName(workers)
                        .status(NodegroupStatus.CREATING)
                        .build());

        assertThatThrownBy(() -> new CheckNodegroupStep(
                                run.store,
                                () -> new EksNodegroups(eks),
                                run.ec2(),
                                run.eksClusters(),
                                StartedRun.notAskedFor("the reserved capacity"),
                                run.settings)
                        .run(run.state))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.ResourceFailed))
                .hasMessageContaining("EKS system node group " + system + " failed")
                .hasMessageContaining("AsgInstanceLaunchFailures");
    }

    @Test
    void aSystemNodeGroupWhoseCreateWasLostIsAskedForAgainAndWaitedFor() {
        run.clusterActive();
        // Recorded before the call, and the call never reached EKS.
        run.store.update(
                run.runId,
                r -> r.withResource(RunResources.SYSTEM_NODE_GROUP, run.names().systemNodeGroupName()));

        step().run(run.state);
        assertThat(run.calls("eks:CreateNodegroup"))
                .as("the system node group's")
                .isEqualTo(1);
        assertThat(run.cloud
                        .eks()
                        .listNodegroups(r -> r.clusterName(run.names().clusterName()))
                        .nodegroups())
                .containsExactly(run.names().systemNodeGroupName());

        run.advance(SimulatedCloudControl.OPERATION);
        step().run(run.state);
        run.advance(SimulatedEks.NODEGROUP_CREATING);
        assertThat(step().run(run.state).path("done").asBoolean()).isTrue();
        assertThat(run.calls("eks:CreateNodegroup")).isEqualTo(2);
    }

    Nodegroup activeSystemNodegroup() {
        return Nodegroup.builder()
                .clusterName(run.names().clusterName())
                .nodegroupName(run.names().systemNodeGroupName())
                .status(NodegroupStatus.ACTIVE)
                .build();
    }

    /** EKS knowing one cluster (ACTIVE) with these node groups, as built; every other call is unsupported. */
    record NodegroupsEks(String cluster, List<Nodegroup> nodegroups) implements EksClient {
        NodegroupsEks(String cluster, Nodegroup... nodegroups) {
            this(cluster, List.of(nodegroups));
        }

        @Override
        public DescribeClusterResponse describeCluster(DescribeClusterRequest request) {
            assertThat(request.name()).isEqualTo(cluster);
            return DescribeClusterResponse.builder()
                    .cluster(Cluster.builder()
                            .name(cluster)
                            .status(ClusterStatus.ACTIVE)
                            .build())
                    .build();
        }

        @Override
        public ListNodegroupsResponse listNodegroups(ListNodegroupsRequest request) {
            assertThat(request.clusterName()).isEqualTo(cluster);
            return ListNodegroupsResponse.builder()
                    .nodegroups(
                            nodegroups.stream().map(Nodegroup::nodegroupName).toList())
                    .build();
        }

        @Override
        public DescribeNodegroupResponse describeNodegroup(DescribeNodegroupRequest request) {
            return DescribeNodegroupResponse.builder()
                    .nodegroup(nodegroups.stream()
                            .filter(n -> n.nodegroupName().equals(request.nodegroupName()))
                            .findFirst()
                            .orElseThrow())
                    .build();
        }

        @Override
        public String serviceName() {
            return SERVICE_NAME;
        }

        @Override
        public void close() {}
    }
}
