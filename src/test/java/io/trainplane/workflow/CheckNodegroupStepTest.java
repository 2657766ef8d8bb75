package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.ec2.ReservedCapacity;
import io.trainplane.aws.eks.EksNodegroups;
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
 * ACTIVE; a node group EKS could not create (an EKS answer built by hand) ends the run with the
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

    @Test
    void itAsksForTheLaunchTemplateThenTheNodeGroupOnceAndWaitsUntilItIsActive() {
        run.clusterActive();

        // Nothing asked for yet: the launch template is; the node group and a reservation are not looked at.
        JsonNode first = new CheckNodegroupStep(
                        run.store,
                        StartedRun.notAskedFor("the node groups"),
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
        assertThat(run.calls("eks:CreateNodegroup")).isZero();

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
        assertThat(run.calls("eks:CreateNodegroup")).as("asked for once").isEqualTo(1);
        assertThat(run.calls("cloudcontrol:CreateResource"))
                .as("the log group and the launch template")
                .isEqualTo(2);
    }

    @Test
    void aNodeGroupEksCouldNotCreateEndsTheRunWithTheHealthIssue() {
        String cluster = run.names().clusterName();
        String nodegroup = run.names().nodeGroupName();
        run.store.update(run.runId, r -> r.withResource(RunResources.NODE_GROUP, nodegroup));
        EksClient eks = new OneNodegroupEks(
                cluster,
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
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo("ResourceFailed"))
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
        run.store.update(run.runId, r -> r.withResource(RunResources.NODE_GROUP, nodegroup));
        EksClient eks = new OneNodegroupEks(
                cluster,
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
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo("ResourceFailed"))
                .hasMessageContaining("is degraded")
                .hasMessageContaining("EKS reports no health issue");
    }

    /** EKS knowing one cluster (ACTIVE) with one node group, as built; every other call is unsupported. */
    record OneNodegroupEks(String cluster, Nodegroup nodegroup) implements EksClient {
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
                    .nodegroups(nodegroup.nodegroupName())
                    .build();
        }

        @Override
        public DescribeNodegroupResponse describeNodegroup(DescribeNodegroupRequest request) {
            assertThat(request.nodegroupName()).isEqualTo(nodegroup.nodegroupName());
            return DescribeNodegroupResponse.builder().nodegroup(nodegroup).build();
        }

        @Override
        public String serviceName() {
            return SERVICE_NAME;
        }

        @Override
        public void close() {}
    }
}
