package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.TestTime;
import io.trainplane.local.LocalCloud;
import org.junit.jupiter.api.Test;

/** A cluster placement group is within one Availability Zone: a node group spread over several cannot launch into one. */
class PlacementGroupZonesTest {
    @Test
    void aNodeGroupInAPlacementGroupAcrossZonesFailsToLaunch() {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            cloud.eks().createCluster(LocalCloudTest.clusterOfTheDay("tp-pg", "pg", "pg"));
            cloud.clock().advance(SimulatedEks.CLUSTER_CREATING);
            cloud.cloudControl().createResource(c -> c.typeName("AWS::EC2::PlacementGroup")
                    .desiredState("{\"GroupName\": \"tp-pg\", \"Strategy\": \"cluster\"}"));
            String token = cloud.cloudControl()
                    .createResource(c -> c.typeName("AWS::EC2::LaunchTemplate")
                            .desiredState("{\"LaunchTemplateName\": \"tp-pg\", \"LaunchTemplateData\":"
                                    + " {\"Placement\": {\"GroupName\": \"tp-pg\"}}}"))
                    .progressEvent()
                    .requestToken();
            cloud.clock().advance(java.time.Duration.ofMinutes(1));
            String id = cloud.cloudControl()
                    .getResourceRequestStatus(r -> r.requestToken(token))
                    .progressEvent()
                    .identifier();
            cloud.eks()
                    .createNodegroup(SimAccount.nodegroup("tp-pg", "spread", "s", "pg").toBuilder()
                            .subnets(SimulatedNetwork.SUBNET_1A, SimulatedNetwork.SUBNET_1B)
                            .launchTemplate(l -> l.id(id))
                            .build());
            cloud.clock().advance(SimulatedEks.NODEGROUP_CREATING);

            var spread = cloud.eks()
                    .describeNodegroup(n -> n.clusterName("tp-pg").nodegroupName("spread"))
                    .nodegroup();
            assertThat(spread.statusAsString()).isEqualTo("CREATE_FAILED");
            assertThat(spread.health().issues().getFirst().message())
                    .contains("cluster placement group 'tp-pg' is in one Availability Zone")
                    .contains("us-east-1a, us-east-1b");
        }
    }
}
