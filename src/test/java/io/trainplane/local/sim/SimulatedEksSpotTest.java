package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.eks.model.CapacityTypes;
import software.amazon.awssdk.services.eks.model.InvalidParameterException;
import software.amazon.awssdk.services.eks.model.Nodegroup;
import software.amazon.awssdk.services.eks.model.NodegroupStatus;

/** A SPOT node group diversified across instance types, as the simulated EKS takes it. */
class SimulatedEksSpotTest {
    static final String CLUSTER = SimulatedEksCapacityTest.CLUSTER;
    final SimAccount sim = new SimAccount();

    @BeforeEach
    void activeCluster() {
        sim.eks.createCluster(SimAccount.cluster(CLUSTER, "tok", "cap"));
        sim.advance(SimulatedEks.CLUSTER_CREATING);
    }

    @Test
    void everyNodeOfADiversifiedSpotGroupTakesTheFirstListedTypeAndItsCapacity() {
        List<String> types = List.of("c5a.2xlarge", "c5.2xlarge", "c6i.2xlarge");
        sim.eks.createNodegroup(SimulatedEksCapacityTest.nodegroup(
                "spot", CapacityTypes.SPOT, null, SimulatedEksCapacityTest.ZONE_A, 2, types.toArray(String[]::new)));
        sim.advance(SimulatedEks.NODEGROUP_CREATING);

        Nodegroup described = sim.eks
                .describeNodegroup(r -> r.clusterName(CLUSTER).nodegroupName("spot"))
                .nodegroup();
        assertThat(described.status()).isEqualTo(NodegroupStatus.ACTIVE);
        assertThat(described.instanceTypes()).containsExactlyElementsOf(types);
        assertThat(described.capacityTypeAsString()).isEqualTo("SPOT");

        ClusterNodes.Group group = sim.eks.activeNodegroups(CLUSTER).stream()
                .filter(g -> g.name().equals("spot"))
                .findFirst()
                .orElseThrow();
        assertThat(group.instanceType()).isEqualTo("c5a.2xlarge");
        assertThat(group.capacityType()).isEqualTo("SPOT");
        // What the scheduler sees is the listed type's: 8 vCPUs, 16 GiB, no GPU.
        assertThat(ClusterNodes.capacity(group).get("cpu").getAmount()).isEqualTo("8");
        assertThat(ClusterNodes.capacity(group).get("memory").getAmount()).isEqualTo("16384");
    }

    @Test
    void eksRefusesMoreThanTwentyInstanceTypes() {
        String[] types = IntStream.range(0, NodegroupLaunches.MAX_INSTANCE_TYPES + 1)
                .mapToObj(i -> "c5." + i + "xlarge")
                .toArray(String[]::new);

        assertThatThrownBy(() -> sim.eks.createNodegroup(SimulatedEksCapacityTest.nodegroup(
                        "many", CapacityTypes.SPOT, null, SimulatedEksCapacityTest.ZONE_A, 1, types)))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("instanceTypes lists 21 instance types; a node group takes at most 20");
    }
}
