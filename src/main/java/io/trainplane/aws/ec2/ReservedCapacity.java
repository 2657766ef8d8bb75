package io.trainplane.aws.ec2;

import io.trainplane.aws.ClusterNetwork;
import io.trainplane.core.FailureReason;
import io.trainplane.core.Json;
import io.trainplane.core.TerminalException;
import io.trainplane.spec.CapacityType;
import io.trainplane.spec.NodeGroupSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.cloudcontrol.CloudControlClient;
import software.amazon.awssdk.services.cloudcontrol.model.ResourceNotFoundException;

/**
 * Where a node group that launches into a capacity reservation (an On-Demand Capacity
 * Reservation or a Capacity Block) can go. A reservation is for one instance type in one
 * Availability Zone, and EC2 launches an instance into it only from a subnet of that zone, with
 * that instance type, while it is active
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-reservations-launch.html,
 * https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-blocks-launch.html); EKS asks for
 * the node group to be given only the subnets of the reservation's zone
 * (https://docs.aws.amazon.com/eks/latest/userguide/capacity-blocks-mng.html). A node group given
 * the stack's other subnets too would fail to launch there, after minutes, as an Auto Scaling
 * group error: this looks the reservation and the subnets up through Cloud Control first and
 * refuses, before anything is created, what cannot launch.
 */
public final class ReservedCapacity {
    public static final String SUBNET = "AWS::EC2::Subnet";

    private final CloudControlClient cloudControl;

    public ReservedCapacity(CloudControlClient cloudControl) {
        this.cloudControl = cloudControl;
    }

    /**
     * The network the node group gets: {@code stack} itself without a reservation, else only the
     * stack's subnets in the reservation's zone (the security groups unchanged). Without a
     * reservation, an EFA node group in a cluster placement group ({@link Ec2DesiredState#needsPlacementGroup})
     * gets the stack's subnets of one zone, the first subnet's: such a group is "a logical grouping
     * of instances within a single Availability Zone"
     * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/placement-strategies.html#placement-groups-cluster).
     *
     * @throws TerminalException when the reservation does not exist, is not active, is not of
     *     the node group's kind or instance type, is smaller than the node group, or no subnet of
     *     the stack is in its zone
     */
    public ClusterNetwork networkFor(NodeGroupSpec nodeGroup, ClusterNetwork stack, String region) {
        String id = nodeGroup.capacityReservationId();
        if (id == null) {
            return Ec2DesiredState.needsPlacementGroup(nodeGroup) ? oneZone(stack) : stack;
        }
        CapacityReservation reservation = reservation(id)
                .orElseThrow(
                        () -> new TerminalException(
                                FailureReason.CapacityReservationNotFound,
                                "capacity reservation " + id
                                        + " (cluster.nodeGroup.capacityReservationId) does not exist in " + region
                                        + " for this account: check the id (aws ec2 describe-capacity-reservations) and the region"));
        Map<String, String> zones = new LinkedHashMap<>();
        stack.subnetIds().forEach(subnet -> zones.put(subnet, zoneOf(subnet)));
        return choose(nodeGroup, reservation, zones, stack);
    }

    /** The subnets of {@code stack} (in its order) that can launch into {@code reservation}, or why none can. */
    static ClusterNetwork choose(
            NodeGroupSpec nodeGroup,
            CapacityReservation reservation,
            Map<String, String> subnetZones,
            ClusterNetwork stack) {
        String what = reservation.describe() + " (cluster.nodeGroup.capacityReservationId)";
        boolean block = nodeGroup.capacityType() == CapacityType.CAPACITY_BLOCK;
        if (block != reservation.capacityBlock()) {
            throw new TerminalException(
                    FailureReason.CapacityTypeMismatch,
                    what + " is "
                            + (reservation.capacityBlock()
                                    ? "a Capacity Block for ML: set cluster.nodeGroup.capacityType to CAPACITY_BLOCK"
                                    : "an On-Demand Capacity Reservation, not a Capacity Block: set cluster.nodeGroup.capacityType to ON_DEMAND"));
        }
        if (!reservation.active()) {
            throw new TerminalException(
                    FailureReason.CapacityReservationNotActive,
                    what + " is " + reservation.state()
                            + (reservation.startDate().isPresent() && "scheduled".equals(reservation.state())
                                    ? " (it starts " + reservation.startDate().get()
                                            + "): start the run once it is active"
                                    : ": EC2 launches instances only into an active reservation; use an active one"));
        }
        if (!nodeGroup.instanceType().equals(reservation.instanceType())) {
            throw new TerminalException(
                    FailureReason.CapacityReservationInstanceType,
                    what + " reserves " + reservation.instanceType()
                            + ", not " + nodeGroup.firstType() + ": set cluster.nodeGroup.instanceType to "
                            + reservation.instanceType()
                            + " (and gpusPerNode to its GPU count), or use a reservation for "
                            + nodeGroup.firstType());
        }
        if (nodeGroup.nodes() > reservation.totalInstanceCount()) {
            throw new TerminalException(
                    FailureReason.CapacityReservationTooSmall,
                    what + " reserves " + reservation.totalInstanceCount()
                            + " instances, the node group asks for " + nodeGroup.nodes()
                            + ": set cluster.nodeGroup.nodes to at most "
                            + reservation.totalInstanceCount());
        }
        List<String> inZone = stack.subnetIds().stream()
                .filter(subnet -> reservation.availabilityZone().equals(subnetZones.get(subnet)))
                .toList();
        if (inZone.isEmpty()) {
            String others = stack.subnetIds().stream()
                    .map(subnet -> subnet + " in " + subnetZones.get(subnet))
                    .collect(Collectors.joining(", "));
            throw new TerminalException(
                    FailureReason.NoSubnetInReservationZone,
                    what + " is in " + reservation.availabilityZone()
                            + " and none of the stack's subnets is (" + others
                            + "); EC2 launches into a reservation only from "
                            + "its zone: add a subnet in " + reservation.availabilityZone()
                            + " to the stack's SubnetIds parameter, "
                            + "or use a reservation in the zone of one of its subnets");
        }
        return new ClusterNetwork(inZone, stack.securityGroupIds());
    }

    /** The stack's subnets in the zone of its first subnet. */
    private ClusterNetwork oneZone(ClusterNetwork stack) {
        String zone = zoneOf(stack.subnetIds().getFirst());
        List<String> inZone = stack.subnetIds().stream()
                .filter(subnet -> zone.equals(zoneOf(subnet)))
                .toList();
        return new ClusterNetwork(inZone, stack.securityGroupIds());
    }

    Optional<CapacityReservation> reservation(String id) {
        try {
            String properties = cloudControl
                    .getResource(r -> r.typeName(CapacityReservation.TYPE).identifier(id))
                    .resourceDescription()
                    .properties();
            return Optional.of(CapacityReservation.fromProperties(id, Json.read(properties)));
        } catch (ResourceNotFoundException e) {
            return Optional.empty();
        }
    }

    String zoneOf(String subnetId) {
        try {
            String properties = cloudControl
                    .getResource(r -> r.typeName(SUBNET).identifier(subnetId))
                    .resourceDescription()
                    .properties();
            return Json.read(properties).path("AvailabilityZone").asText();
        } catch (ResourceNotFoundException e) {
            throw new TerminalException(
                    FailureReason.SubnetNotFound,
                    "the stack's subnet " + subnetId + " no longer exists: " + "update the stack's SubnetIds parameter",
                    e);
        }
    }
}
