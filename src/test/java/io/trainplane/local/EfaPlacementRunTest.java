package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.local.sim.SimulatedNetwork;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * EFA on demand, outside a Capacity Block: the workers go into a cluster placement group, which is
 * within one Availability Zone, so their node group gets the stack's subnets of one zone only; a
 * node group spread over the stack's zones with such a group fails to launch in the twin, as in EC2.
 */
class EfaPlacementRunTest {
    @Test
    void anEfaNodeGroupInAPlacementGroupIsGivenTheSubnetsOfOneZone() throws IOException {
        ObjectNode spec = (ObjectNode) Json.read(Files.readString(Path.of("examples/multi-node-efa.json")));
        ObjectNode nodeGroup = (ObjectNode) spec.path("cluster").path("nodeGroup");
        nodeGroup.put("capacityType", "ON_DEMAND").remove("capacityReservationId");
        // The cluster kept, so that its node group can be read after the run.
        ((ObjectNode) spec.path("cleanup")).put("keepCluster", true);
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunReport r = new LocalRun(cloud, Faults.none(), e -> {})
                    .execute(RunSpecs.normalize(Json.write(spec)), "cifar10-p4d-efa");

            assertThat(r.status()).as(r.error() + " " + r.cause()).isEqualTo("SUCCEEDED");
            assertThat(r.resources().created()).anyMatch(c -> c.startsWith("ec2:placement-group/"));
            var workers = cloud.eks()
                    .describeNodegroup(
                            n -> n.clusterName("tp-cifar10-p4d-efa-eks").nodegroupName("tp-cifar10-p4d-efa-nodes"))
                    .nodegroup();
            // The stack's subnets are in us-east-1a and us-east-1b: the workers get the first one's zone.
            assertThat(workers.subnets()).containsExactly(SimulatedNetwork.SUBNET_1A);
        }
    }
}
