package io.trainplane.local.sim;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.local.sim.SimulatedCapacity.Reservation;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import software.amazon.awssdk.services.eks.model.CapacityTypes;
import software.amazon.awssdk.services.eks.model.CreateNodegroupRequest;
import software.amazon.awssdk.services.eks.model.LaunchTemplateSpecification;

/**
 * A managed node group's launch template and the EC2 capacity it launches into, as EKS and EC2
 * judge them: what EKS refuses in CreateNodegroup itself ({@link #check}: InvalidParameterException),
 * and what EC2 refuses when the node group's Auto Scaling group launches the instances
 * ({@link #launch}): EKS reports that as the health issue {@code AsgInstanceLaunchFailures}
 * ("Your Auto Scaling group is experiencing failures while attempting to launch instances",
 * https://docs.aws.amazon.com/eks/latest/APIReference/API_Issue.html) and the node group ends
 * CREATE_FAILED. Without Cloud Control ({@link #NONE}: tests of EKS alone) only the rules that
 * need no launch template data apply.
 */
final class NodegroupLaunches {
    static final NodegroupLaunches NONE = new NodegroupLaunches(null, null, null);
    /** EKS's instance type when neither the node group nor its launch template names one (CreateNodegroup API reference). */
    static final String DEFAULT_INSTANCE_TYPE = "t3.medium";
    /** EC2's answer when a targeted reservation does not fit the launch (its AZ, instance type, state or room). */
    static final String RESERVATION_EXCEEDED = "ReservationCapacityExceeded - The requested reservation does not have "
            + "sufficient compatible and available capacity for this request.";

    private final SimulatedNetwork network;
    private final SimulatedCapacity capacity;
    /** A launch template's data by id (or by name when the id is null), when it exists. */
    private final BiFunction<String, String, Optional<JsonNode>> launchTemplates;

    NodegroupLaunches(
            SimulatedNetwork network,
            SimulatedCapacity capacity,
            BiFunction<String, String, Optional<JsonNode>> launchTemplates) {
        this.network = network;
        this.capacity = capacity;
        this.launchTemplates = launchTemplates;
    }

    /**
     * The launch template rules EKS checks when it is asked for the node group
     * (https://docs.aws.amazon.com/eks/latest/userguide/capacity-blocks-mng.html: "Managed node
     * groups with Capacity Blocks can only be created with custom launch templates"; the template
     * needs {@code InstanceMarketOptions.MarketType} {@code capacity-block}, a
     * {@code CapacityReservationTarget} and an {@code InstanceType}; "If the capacity type isn't set
     * to CAPACITY_BLOCK or any of the other above required launch template values are missing,
     * then the create request will be rejected"), and the instance type given twice
     * (https://docs.aws.amazon.com/eks/latest/APIReference/API_CreateNodegroup.html, instanceTypes:
     * "If however, you specify an instance type in your launch template and specify any
     * instanceTypes, the node group deployment will fail"; the twin refuses it at once).
     */
    /** The most instance types CreateNodegroup takes. */
    static final int MAX_INSTANCE_TYPES = 20;

    void check(CreateNodegroupRequest request, EksAccount account, String cluster) {
        // "you can specify 0-20 instance types for instanceTypes"
        // (https://docs.aws.amazon.com/eks/latest/APIReference/API_CreateNodegroup.html, instanceTypes).
        account.require(
                !request.hasInstanceTypes() || request.instanceTypes().size() <= MAX_INSTANCE_TYPES,
                cluster,
                "instanceTypes lists "
                        + (request.hasInstanceTypes() ? request.instanceTypes().size() : 0)
                        + " instance types; a node group takes at most " + MAX_INSTANCE_TYPES);
        boolean block = request.capacityType() == CapacityTypes.CAPACITY_BLOCK;
        LaunchTemplateSpecification spec = request.launchTemplate();
        account.require(
                !block || spec != null,
                cluster,
                "Launch template is required for capacityType CAPACITY_BLOCK: it must target the Capacity Block");
        if (spec == null || launchTemplates == null) {
            return;
        }
        JsonNode data = launchTemplates.apply(spec.id(), spec.name()).orElse(null);
        account.require(
                data != null,
                cluster,
                "The specified launch template, with template "
                        + (spec.id() != null ? "ID " + spec.id() : "name " + spec.name()) + ", does not exist.");
        boolean blockMarket = "capacity-block"
                .equals(data.at("/InstanceMarketOptions/MarketType").asText(null));
        if (block) {
            account.require(
                    blockMarket && reservationId(data) != null && data.hasNonNull("InstanceType"),
                    cluster,
                    "Launch template for capacityType CAPACITY_BLOCK must set InstanceMarketOptions.MarketType "
                            + "capacity-block, CapacityReservationSpecification.CapacityReservationTarget."
                            + "CapacityReservationId and InstanceType");
        } else {
            account.require(
                    !blockMarket,
                    cluster,
                    "Launch template with InstanceMarketOptions.MarketType capacity-block "
                            + "requires capacityType CAPACITY_BLOCK, not " + request.capacityTypeAsString());
        }
        account.require(
                !data.hasNonNull("InstanceType")
                        || !request.hasInstanceTypes()
                        || request.instanceTypes().isEmpty(),
                cluster,
                "Cannot specify instance types in launch template and API request");
    }

    /**
     * Launches the node group's instances into the capacity reservation its launch template
     * targets: EC2's error when it refuses them (empty when they launch, or when the template
     * targets no reservation); launched instances take room in the reservation until
     * {@link #release}. EC2's rules:
     * <ul>
     * <li>an instance launches into a reservation only with "matching attributes (instance type,
     *     platform, Availability Zone, and tenancy)", "sufficient available capacity", and the
     *     reservation "in the active state"
     *     (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-reservations-launch.html);
     *     a targeted launch that does not fit fails with ReservationCapacityExceeded;</li>
     * <li>a Capacity Block: "Your instance can't launch in a subnet in a different Availability
     *     Zone from the Availability Zone where your Capacity Block is located"
     *     (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-blocks-launch.html); before
     *     its start, launches fail for insufficient capacity
     *     (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-fleet-launch-instances-capacity-blocks-walkthrough.html);</li>
     * <li>a Capacity Block's instances "are automatically placed close together" and "there is no
     *     need to use a cluster placement group with a Capacity Block"
     *     (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-blocks-using.html). Stricter
     *     than that page: the twin refuses a placement group with a Capacity Block, as AWS
     *     ParallelCluster does (aws/aws-parallelcluster#6311).</li>
     * </ul>
     * More lenient than AWS: a subnet this account does not know passes the zone rule. Stricter: a
     * scheduled Capacity Block fails the node group, where EKS lets its Auto Scaling group retry
     * until the block starts.
     */
    Optional<String> launch(CreateNodegroupRequest request, String owner, Instant now) {
        JsonNode data = templateData(request);
        Optional<String> spread = placementAcrossZones(request, data);
        if (spread.isPresent()) {
            return spread.map(
                    error -> "Could not launch On-Demand Instances. " + error + " Launching EC2 instance failed.");
        }
        String id = data == null ? null : reservationId(data);
        if (id == null) {
            return Optional.empty();
        }
        Reservation reservation = capacity.reservation(id).orElse(null);
        Optional<String> refusal = refusal(request, data, id, reservation, now);
        if (refusal.isEmpty()) {
            capacity.use(id, owner, desiredSize(request));
        }
        return refusal.map(
                error -> "Could not launch On-Demand Instances. " + error + " Launching EC2 instance failed.");
    }

    /**
     * A cluster placement group is "a logical grouping of instances within a single Availability
     * Zone" (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/placement-strategies.html#placement-groups-cluster):
     * an Auto Scaling group whose subnets span several zones cannot launch all its instances into
     * one (the twin's wording of EC2's refusal).
     */
    private Optional<String> placementAcrossZones(CreateNodegroupRequest request, JsonNode data) {
        if (data == null || !data.at("/Placement/GroupName").isTextual() || network == null) {
            return Optional.empty();
        }
        List<String> zones = request.subnets().stream()
                .map(network::subnet)
                .flatMap(Optional::stream)
                .map(SimulatedNetwork.Subnet::zoneName)
                .distinct()
                .sorted()
                .toList();
        if (zones.size() <= 1) {
            return Optional.empty();
        }
        return Optional.of("InvalidParameterCombination - The cluster placement group '"
                + data.at("/Placement/GroupName").asText() + "' is in one Availability Zone; the node group's subnets"
                + " are in " + String.join(", ", zones) + ".");
    }

    /** The node group's instances are terminating: their room in a reservation is free again. */
    void release(String owner) {
        if (capacity != null) {
            capacity.release(owner);
        }
    }

    private Optional<String> refusal(
            CreateNodegroupRequest request, JsonNode data, String id, Reservation reservation, Instant now) {
        if (reservation == null) {
            return Optional.of(
                    "InvalidCapacityReservationId.NotFound - The Capacity Reservation ID '" + id + "' does not exist.");
        }
        if (now.isBefore(reservation.start())) {
            return Optional.of(
                    "InsufficientInstanceCapacity - We currently do not have sufficient " + reservation.instanceType()
                            + " capacity in the Availability Zone you requested (" + reservation.zoneName() + ").");
        }
        if (!reservation.active(now)) {
            return Optional.of(RESERVATION_EXCEEDED);
        }
        boolean blockMarket = "capacity-block"
                .equals(data.at("/InstanceMarketOptions/MarketType").asText(null));
        if (reservation.capacityBlock() && !blockMarket) {
            return Optional.of("InvalidParameterCombination - Capacity Block " + id
                    + " takes only instances launched with InstanceMarketOptions.MarketType capacity-block.");
        }
        if (reservation.capacityBlock() && data.at("/Placement/GroupName").isTextual()) {
            return Optional.of("InvalidParameterCombination - Instances in Capacity Block " + id
                    + " cannot be launched into a placement group.");
        }
        boolean otherZone = request.subnets().stream()
                .map(network::subnet)
                .flatMap(Optional::stream)
                .anyMatch(subnet -> !subnet.zoneName().equals(reservation.zoneName()));
        boolean otherType =
                instanceTypes(request, data).stream().anyMatch(type -> !type.equals(reservation.instanceType()));
        if (otherZone || otherType || desiredSize(request) > capacity.available(id)) {
            return Optional.of(RESERVATION_EXCEEDED);
        }
        return Optional.empty();
    }

    /**
     * The instance type the node group's instances launch as: its launch template's, its first one,
     * or EKS's default. Of a diversified (SPOT) list every node takes the first type: on EKS, EC2's
     * price-capacity-optimized allocation picks per instance, from the pools with most spare
     * capacity at the lowest price (https://docs.aws.amazon.com/eks/latest/userguide/managed-node-groups.html#managed-node-group-capacity-types),
     * which a twin without capacity pools cannot reproduce; the spec's rules keep the listed types
     * to one shape and size the workers for the smallest, so any one of them stands for the rest.
     */
    String instanceType(CreateNodegroupRequest request) {
        JsonNode data = templateData(request);
        return instanceTypes(request, data == null ? com.fasterxml.jackson.databind.node.NullNode.getInstance() : data)
                .get(0);
    }

    /** The EFA interfaces the launch template attaches to each instance (NetworkInterfaces of InterfaceType efa or efa-only). */
    int efaInterfaces(CreateNodegroupRequest request) {
        JsonNode data = templateData(request);
        int count = 0;
        if (data != null) {
            for (JsonNode nic : data.path("NetworkInterfaces")) {
                String type = nic.path("InterfaceType").asText("");
                if (type.equals("efa") || type.equals("efa-only")) {
                    count++;
                }
            }
        }
        return count;
    }

    /**
     * Each instance's root volume in GiB: its launch template's block device mapping of the root
     * device, else the node group's diskSize, else EKS's 20
     * (https://docs.aws.amazon.com/eks/latest/APIReference/API_CreateNodegroup.html, diskSize).
     */
    int diskGiB(CreateNodegroupRequest request) {
        JsonNode data = templateData(request);
        if (data != null) {
            for (JsonNode mapping : data.path("BlockDeviceMappings")) {
                if (NodeRootVolume.AL2023_ROOT_DEVICE.equals(
                                mapping.path("DeviceName").asText())
                        && mapping.at("/Ebs/VolumeSize").canConvertToInt()) {
                    return mapping.at("/Ebs/VolumeSize").asInt();
                }
            }
        }
        return request.diskSize() != null ? request.diskSize() : NodeRootVolume.EKS_DEFAULT_GIB;
    }

    /** The data of the launch template the node group names; null without one (or without Cloud Control). */
    private JsonNode templateData(CreateNodegroupRequest request) {
        return request.launchTemplate() == null || launchTemplates == null
                ? null
                : launchTemplates
                        .apply(
                                request.launchTemplate().id(),
                                request.launchTemplate().name())
                        .orElse(null);
    }

    private static List<String> instanceTypes(CreateNodegroupRequest request, JsonNode data) {
        if (data.hasNonNull("InstanceType")) {
            return List.of(data.get("InstanceType").asText());
        }
        return request.hasInstanceTypes() && !request.instanceTypes().isEmpty()
                ? request.instanceTypes()
                : List.of(DEFAULT_INSTANCE_TYPE);
    }

    /** EKS's default desired size is 2, as DescribeNodegroup shows it ({@link EksViews}). */
    private static int desiredSize(CreateNodegroupRequest request) {
        return request.scalingConfig() == null || request.scalingConfig().desiredSize() == null
                ? 2
                : request.scalingConfig().desiredSize();
    }

    private static String reservationId(JsonNode data) {
        return data.at("/CapacityReservationSpecification/CapacityReservationTarget/CapacityReservationId")
                .asText(null);
    }
}
