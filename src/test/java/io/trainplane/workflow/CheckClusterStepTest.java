package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.eks.EksClusters;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.local.sim.SimulatedCloudControl;
import io.trainplane.local.sim.SimulatedEks;
import io.trainplane.runs.RunResources;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.eks.model.Cluster;
import software.amazon.awssdk.services.eks.model.ClusterHealth;
import software.amazon.awssdk.services.eks.model.ClusterIssue;
import software.amazon.awssdk.services.eks.model.ClusterStatus;
import software.amazon.awssdk.services.eks.model.DescribeClusterRequest;
import software.amazon.awssdk.services.eks.model.DescribeClusterResponse;

/**
 * CheckCluster's looks at a run's cluster on the simulated account: the log group first (EKS not
 * asked meanwhile), then the cluster asked for once and waited for until ACTIVE; a FAILED cluster
 * (which the simulation does not make: an EKS answer built by hand) ends the run with EKS's reason.
 */
class CheckClusterStepTest {
    final StartedRun run = new StartedRun("check-cluster");

    @AfterEach
    void close() {
        run.close();
    }

    CheckClusterStep step() {
        return new CheckClusterStep(run.store, run.eksClusters(), run.ec2(), run.settings);
    }

    @Test
    void whileTheLogGroupIsBeingCreatedItWaitsForItWithoutAskingEks() {
        new CreateClusterStep(run.store, run.ec2(), run.reservedCapacity(), run.settings).run(run.state);

        JsonNode look =
                new CheckClusterStep(run.store, StartedRun.notAskedFor("EKS"), run.ec2(), run.settings).run(run.state);

        assertThat(look.path("done").asBoolean()).isFalse();
        assertThat(look.path("waitSeconds").asInt()).isEqualTo(CheckClusterStep.LOG_GROUP_WAIT_SECONDS);
        assertThat(look.path("detail").asText()).isNotBlank();
        assertThat(run.record().resources().has(RunResources.EKS_CLUSTER)).isFalse();
    }

    @Test
    void onceTheLogGroupExistsItAsksForTheClusterOnceAndWaitsUntilItIsActive() {
        new CreateClusterStep(run.store, run.ec2(), run.reservedCapacity(), run.settings).run(run.state);
        run.advance(SimulatedCloudControl.OPERATION);

        JsonNode creating = step().run(run.state);
        assertThat(creating.path("done").asBoolean()).isFalse();
        assertThat(creating.path("waitSeconds").asInt()).isEqualTo(CheckClusterStep.WAIT_SECONDS);
        assertThat(creating.path("detail").asText()).contains("CREATING");
        assertThat(run.record().resources().get(RunResources.EKS_CLUSTER))
                .contains(run.names().clusterName());

        run.advance(Duration.ofMinutes(5));
        assertThat(step().run(run.state).path("done").asBoolean()).isFalse();
        assertThat(run.calls("eks:CreateCluster")).as("asked for once").isEqualTo(1);

        run.advance(SimulatedEks.CLUSTER_CREATING);
        JsonNode active = step().run(run.state);
        assertThat(active.path("done").asBoolean()).isTrue();
        assertThat(active.path("waitSeconds").asInt()).isZero();
        assertThat(run.calls("eks:CreateCluster")).isEqualTo(1);
    }

    @Test
    void aRecordThatNamesNoLogGroupRequestEndsTheRun() {
        assertThatThrownBy(() -> step().run(run.state))
                .isInstanceOfSatisfying(TerminalException.class, e -> assertThat(e.reason())
                        .isEqualTo(FailureReason.LogGroupNotRequested))
                .hasMessageContaining(run.names().clusterName());
        assertThat(run.calls("eks:CreateCluster")).isZero();
    }

    @Test
    void aFailedClusterEndsTheRunWithEksReason() {
        String cluster = run.names().clusterName();
        run.store.update(run.runId, r -> r.withResource(RunResources.EKS_CLUSTER, cluster));
        EksClient eks = new OneClusterEks(Cluster.builder()
                .name(cluster)
                .status(ClusterStatus.FAILED)
                .health(ClusterHealth.builder()
                        .issues(ClusterIssue.builder()
                                .code("Ec2SubnetNotFound")
                                .message("The subnet ID 'subnet-0a1b2c3d4e5f60001' does not exist")
                                .resourceIds(List.of("subnet-0a1b2c3d4e5f60001"))
                                .build())
                        .build())
                .build());

        CheckClusterStep step = new CheckClusterStep(run.store, () -> new EksClusters(eks), run.ec2(), run.settings);

        assertThatThrownBy(() -> step.run(run.state))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.ResourceFailed))
                .hasMessageContaining("EKS cluster " + cluster + " failed")
                .hasMessageContaining("Ec2SubnetNotFound: The subnet ID 'subnet-0a1b2c3d4e5f60001' does not exist")
                .hasMessageContaining("update its subnet parameters");
    }

    @Test
    void aClusterBeingDeletedEndsTheRun() {
        String cluster = run.names().clusterName();
        run.store.update(run.runId, r -> r.withResource(RunResources.EKS_CLUSTER, cluster));
        EksClient eks = new OneClusterEks(
                Cluster.builder().name(cluster).status(ClusterStatus.DELETING).build());

        assertThatThrownBy(() -> new CheckClusterStep(run.store, () -> new EksClusters(eks), run.ec2(), run.settings)
                        .run(run.state))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.ResourceDeleted));
    }

    /** EKS answering DescribeCluster with one cluster, as built; every other call is unsupported. */
    record OneClusterEks(Cluster cluster) implements EksClient {
        @Override
        public DescribeClusterResponse describeCluster(DescribeClusterRequest request) {
            assertThat(request.name()).isEqualTo(cluster.name());
            return DescribeClusterResponse.builder().cluster(cluster).build();
        }

        @Override
        public String serviceName() {
            return SERVICE_NAME;
        }

        @Override
        public void close() {}
    }
}
