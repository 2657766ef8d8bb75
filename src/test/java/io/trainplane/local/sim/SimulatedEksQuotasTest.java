package io.trainplane.local.sim;

import static io.trainplane.local.sim.SimAccount.cluster;
import static io.trainplane.local.sim.SimAccount.nodegroup;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.eks.model.InvalidParameterException;
import software.amazon.awssdk.services.eks.model.ResourceLimitExceededException;

/** EKS's quotas on managed node groups (https://docs.aws.amazon.com/eks/latest/userguide/service-quotas.html). */
class SimulatedEksQuotasTest {
    final SimAccount sim = new SimAccount();

    @Test
    void aClusterTakesThirtyManagedNodeGroupsAndRefusesTheThirtyFirst() {
        sim.eks.createCluster(cluster("c1", "t", "run-1"));
        sim.advance(SimulatedEks.CLUSTER_CREATING);
        for (int i = 0; i < SimulatedEks.NODEGROUPS_PER_CLUSTER; i++) {
            sim.eks.createNodegroup(nodegroup("c1", "ng-" + i, "n-" + i, "run-1"));
        }

        assertThatThrownBy(() -> sim.eks.createNodegroup(nodegroup("c1", "ng-30", "n-30", "run-1")))
                .isInstanceOfSatisfying(ResourceLimitExceededException.class, e -> assertThat(
                                e.awsErrorDetails().errorMessage())
                        .contains("already has 30 managed node groups"));
        assertThat(sim.eks.listNodegroups(r -> r.clusterName("c1")).nodegroups())
                .hasSize(30);
    }

    @Test
    void aNodeGroupOfMoreThanFourHundredFiftyNodesIsRefused() {
        sim.eks.createCluster(cluster("c1", "t", "run-1"));
        sim.advance(SimulatedEks.CLUSTER_CREATING);

        assertThatThrownBy(() -> sim.eks.createNodegroup(nodegroup("c1", "big", "n", "run-1").toBuilder()
                        .scalingConfig(s -> s.minSize(1).desiredSize(1).maxSize(451))
                        .build()))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("over the quota of 450 nodes per managed node group");
        assertThat(sim.eks.listNodegroups(r -> r.clusterName("c1")).nodegroups())
                .isEmpty();
    }
}
