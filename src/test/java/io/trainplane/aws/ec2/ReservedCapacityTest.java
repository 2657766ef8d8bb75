package io.trainplane.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.trainplane.aws.ClusterNetwork;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.local.asl.SimulatedClock;
import io.trainplane.local.iam.Authorizer;
import io.trainplane.local.sim.CallLog;
import io.trainplane.local.sim.FaultPlan;
import io.trainplane.local.sim.SimulatedCapacity;
import io.trainplane.local.sim.SimulatedCloudControl;
import io.trainplane.local.sim.SimulatedNetwork;
import io.trainplane.spec.CapacityType;
import io.trainplane.spec.NodeGroupSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReservedCapacityTest {
    static final Instant NOW = Instant.parse("2026-03-02T08:00:00Z");
    static final ClusterNetwork STACK = new ClusterNetwork(
            List.of(SimulatedNetwork.SUBNET_1A, SimulatedNetwork.SUBNET_1B, SimulatedNetwork.SUBNET_1A_SECOND),
            List.of("sg-control"));
    static final Map<String, String> ZONES = new LinkedHashMap<>(Map.of(
            SimulatedNetwork.SUBNET_1A,
            "us-east-1a",
            SimulatedNetwork.SUBNET_1B,
            "us-east-1b",
            SimulatedNetwork.SUBNET_1A_SECOND,
            "us-east-1a"));

    static CapacityReservation block(String zone, String type, int count, String state) {
        return new CapacityReservation(
                "cr-0123456789abcdef0",
                zone,
                type,
                count,
                state,
                "capacity-block",
                Optional.of("2026-03-05T11:30:00Z"),
                Optional.of("2026-03-09T11:30:00Z"));
    }

    static NodeGroupSpec blockNodes(String type, int nodes) {
        return new NodeGroupSpec(type, nodes, 8, CapacityType.CAPACITY_BLOCK, "cr-0123456789abcdef0", true);
    }

    static TerminalException refusal(NodeGroupSpec nodes, CapacityReservation reservation) {
        return catchThrowableOfType(
                TerminalException.class, () -> ReservedCapacity.choose(nodes, reservation, ZONES, STACK));
    }

    @Test
    void aNodeGroupInAReservationGetsOnlyTheStacksSubnetsInItsZone() {
        ClusterNetwork chosen = ReservedCapacity.choose(
                blockNodes("p4d.24xlarge", 2), block("us-east-1a", "p4d.24xlarge", 2, "active"), ZONES, STACK);

        assertThat(chosen.subnetIds()).containsExactly(SimulatedNetwork.SUBNET_1A, SimulatedNetwork.SUBNET_1A_SECOND);
        assertThat(chosen.securityGroupIds()).isEqualTo(STACK.securityGroupIds());
    }

    @Test
    void noStackSubnetInTheReservationsZoneIsRefusedNamingTheZonesAndTheFix() {
        TerminalException e = refusal(blockNodes("p4d.24xlarge", 2), block("us-east-1c", "p4d.24xlarge", 2, "active"));

        assertThat(e.reason()).isEqualTo(FailureReason.NoSubnetInReservationZone);
        assertThat(e.getMessage())
                .contains(
                        "us-east-1c",
                        SimulatedNetwork.SUBNET_1B + " in us-east-1b",
                        "cluster.nodeGroup.capacityReservationId",
                        "add a subnet in us-east-1c to the stack's SubnetIds parameter");
    }

    @Test
    void anotherInstanceTypeThanTheReservationsIsRefusedNamingTheField() {
        TerminalException e = refusal(blockNodes("p5.48xlarge", 2), block("us-east-1a", "p4d.24xlarge", 2, "active"));

        assertThat(e.reason()).isEqualTo(FailureReason.CapacityReservationInstanceType);
        assertThat(e.getMessage())
                .contains(
                        "reserves p4d.24xlarge, not p5.48xlarge", "set cluster.nodeGroup.instanceType to p4d.24xlarge");
    }

    @Test
    void theKindOfReservationMustBeTheCapacityType() {
        NodeGroupSpec onDemand =
                new NodeGroupSpec("p4d.24xlarge", 2, 8, CapacityType.ON_DEMAND, "cr-0123456789abcdef0", false);
        assertThat(refusal(onDemand, block("us-east-1a", "p4d.24xlarge", 2, "active"))
                        .getMessage())
                .contains("is a Capacity Block for ML: set cluster.nodeGroup.capacityType to CAPACITY_BLOCK");

        CapacityReservation odcr = new CapacityReservation(
                "cr-0123456789abcdef0",
                "us-east-1a",
                "p4d.24xlarge",
                2,
                "active",
                "default",
                Optional.empty(),
                Optional.empty());
        TerminalException e = refusal(blockNodes("p4d.24xlarge", 2), odcr);
        assertThat(e.reason()).isEqualTo(FailureReason.CapacityTypeMismatch);
        assertThat(e.getMessage())
                .contains("On-Demand Capacity Reservation", "set cluster.nodeGroup.capacityType to ON_DEMAND");
        assertThat(ReservedCapacity.choose(onDemand, odcr, ZONES, STACK).subnetIds())
                .hasSize(2);
    }

    @Test
    void aScheduledOrExpiredReservationIsRefusedAndTooManyNodesToo() {
        TerminalException scheduled =
                refusal(blockNodes("p4d.24xlarge", 2), block("us-east-1a", "p4d.24xlarge", 2, "scheduled"));
        assertThat(scheduled.reason()).isEqualTo(FailureReason.CapacityReservationNotActive);
        assertThat(scheduled.getMessage())
                .contains("is scheduled (it starts 2026-03-05T11:30:00Z): start the run once it is active");
        assertThat(refusal(blockNodes("p4d.24xlarge", 2), block("us-east-1a", "p4d.24xlarge", 2, "expired"))
                        .getMessage())
                .contains("is expired", "use an active one");

        TerminalException small =
                refusal(blockNodes("p4d.24xlarge", 3), block("us-east-1a", "p4d.24xlarge", 2, "active"));
        assertThat(small.reason()).isEqualTo(FailureReason.CapacityReservationTooSmall);
        assertThat(small.getMessage()).contains("set cluster.nodeGroup.nodes to at most 2");
    }

    @Test
    void theReservationAndTheSubnetsAreReadThroughCloudControl() {
        var cloudControl = new SimulatedCloudControl(
                        new CallLog(), new SimulatedClock(NOW), new FaultPlan(), Authorizer.ALLOW_ALL)
                .reading(SimulatedNetwork.stack(), SimulatedCapacity.stack(NOW));
        ReservedCapacity capacity = new ReservedCapacity(cloudControl);
        ClusterNetwork stack =
                new ClusterNetwork(List.of(SimulatedNetwork.SUBNET_1A, SimulatedNetwork.SUBNET_1B), List.of());

        assertThat(capacity.networkFor(blockNodes("p4d.24xlarge", 2), stack, "us-east-1")
                        .subnetIds())
                .containsExactly(SimulatedNetwork.SUBNET_1A);
        NodeGroupSpec plain = new NodeGroupSpec("c5.2xlarge", 2, 0, CapacityType.ON_DEMAND, null, false);
        assertThat(capacity.networkFor(plain, stack, "us-east-1")).isSameAs(stack);
        NodeGroupSpec odcr =
                new NodeGroupSpec("g5.12xlarge", 4, 4, CapacityType.ON_DEMAND, SimulatedCapacity.STACK_ODCR, false);
        assertThat(capacity.networkFor(odcr, stack, "us-east-1").subnetIds())
                .containsExactly(SimulatedNetwork.SUBNET_1B);

        NodeGroupSpec missing =
                new NodeGroupSpec("p4d.24xlarge", 2, 8, CapacityType.CAPACITY_BLOCK, "cr-0aaaaaaaaaaaaaaaa", true);
        assertThatThrownBy(() -> capacity.networkFor(missing, stack, "us-east-1"))
                .isInstanceOfSatisfying(TerminalException.class, e -> assertThat(e.reason())
                        .isEqualTo(FailureReason.CapacityReservationNotFound))
                .hasMessageContaining("cr-0aaaaaaaaaaaaaaaa")
                .hasMessageContaining("us-east-1");
        ClusterNetwork gone = new ClusterNetwork(List.of("subnet-0gone"), List.of());
        assertThatThrownBy(() -> capacity.networkFor(blockNodes("p4d.24xlarge", 2), gone, "us-east-1"))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.SubnetNotFound));
    }

    @Test
    void theExampleBlockExpiresAfterItsDays() {
        SimulatedClock clock = new SimulatedClock(NOW);
        var cloudControl = new SimulatedCloudControl(new CallLog(), clock, new FaultPlan(), Authorizer.ALLOW_ALL);
        clock.advance(SimulatedCapacity.EXAMPLE_BLOCK_LENGTH.plus(Duration.ofMinutes(1)));

        assertThatThrownBy(() -> new ReservedCapacity(cloudControl)
                        .networkFor(
                                blockNodes("p4d.24xlarge", 2),
                                new ClusterNetwork(List.of(SimulatedNetwork.SUBNET_1A), List.of()),
                                "us-east-1"))
                .isInstanceOfSatisfying(TerminalException.class, e -> assertThat(e.reason())
                        .isEqualTo(FailureReason.CapacityReservationNotActive))
                .hasMessageContaining("is expired");
    }
}
