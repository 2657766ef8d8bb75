package io.trainplane.local.sim;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import io.trainplane.local.iam.IamRequest;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.cloudcontrol.model.ResourceDescription;

/**
 * Resource types the simulated account has from the start (its VPC's subnets, its capacity
 * reservations) that Cloud Control reads (GetResource, ListResources) but the twin never creates
 * or deletes. Properties carry the names of the types' CloudFormation schemas; the read handlers
 * ask IAM for the schemas' {@code handlers.read.permissions} with the caller's credentials.
 */
enum CloudControlReadTypes {
    /**
     * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-ec2-capacityreservation.html
     * (properties and return values; primary identifier {@code Id}); read permission
     * ec2:DescribeCapacityReservations.
     */
    CAPACITY_RESERVATION("AWS::EC2::CapacityReservation", List.of("ec2:DescribeCapacityReservations")) {
        @Override
        Optional<ObjectNode> read(
                String identifier, SimulatedNetwork network, SimulatedCapacity capacity, Instant now) {
            return capacity.reservation(identifier).map(r -> {
                ObjectNode p = Json.object();
                p.put("Id", r.id());
                p.put("CapacityReservationArn", r.arn());
                p.put("OwnerId", AwsService.ACCOUNT);
                p.put("AvailabilityZone", r.zoneName());
                p.put("AvailabilityZoneId", r.zoneId());
                p.put("InstanceType", r.instanceType());
                p.put("InstancePlatform", "Linux/UNIX");
                p.put("Tenancy", "default");
                // Capacity Blocks are delivered as targeted reservations
                // (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-blocks-using.html).
                p.put("InstanceMatchCriteria", "targeted");
                p.put("InstanceCount", r.instanceCount());
                p.put("TotalInstanceCount", r.instanceCount());
                p.put("AvailableInstanceCount", capacity.available(r.id()));
                p.put("ReservationType", r.reservationType());
                p.put("State", r.state(now));
                p.put("CreateDate", r.start().toString());
                p.put("StartDate", r.start().toString());
                p.put("EndDateType", r.end() == null ? "unlimited" : "limited");
                if (r.end() != null) {
                    p.put("EndDate", r.end().toString());
                }
                return p;
            });
        }

        @Override
        List<String> identifiers(SimulatedNetwork network, SimulatedCapacity capacity) {
            return capacity.all().stream()
                    .map(SimulatedCapacity.Reservation::id)
                    .toList();
        }
    },
    /**
     * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-ec2-subnet.html
     * (primary identifier {@code SubnetId}); the schema's read handler asks for ec2:DescribeSubnets
     * and ec2:DescribeNetworkAcls (it reports the subnet's network ACL association).
     */
    SUBNET("AWS::EC2::Subnet", List.of("ec2:DescribeSubnets", "ec2:DescribeNetworkAcls")) {
        @Override
        Optional<ObjectNode> read(
                String identifier, SimulatedNetwork network, SimulatedCapacity capacity, Instant now) {
            return network.subnet(identifier).map(s -> {
                ObjectNode p = Json.object();
                p.put("SubnetId", s.id());
                p.put("VpcId", s.vpcId());
                p.put("AvailabilityZone", s.zoneName());
                p.put("AvailabilityZoneId", s.zoneId());
                p.put("CidrBlock", s.cidr().host(0) + "/" + s.cidr().prefix());
                p.put("MapPublicIpOnLaunch", false);
                return p;
            });
        }

        @Override
        List<String> identifiers(SimulatedNetwork network, SimulatedCapacity capacity) {
            return network.subnets().stream().map(SimulatedNetwork.Subnet::id).toList();
        }
    };

    private final String typeName;
    private final List<String> readActions;

    CloudControlReadTypes(String typeName, List<String> readActions) {
        this.typeName = typeName;
        this.readActions = readActions;
    }

    String typeName() {
        return typeName;
    }

    /** What the read (and list) handler asks of IAM: describe actions, which have no resource type. */
    List<IamRequest> readPermissions() {
        return readActions.stream().map(action -> IamRequest.of(action, "*")).toList();
    }

    /** The resource's properties at {@code now}; empty when the account has no such resource. */
    abstract Optional<ObjectNode> read(
            String identifier, SimulatedNetwork network, SimulatedCapacity capacity, Instant now);

    abstract List<String> identifiers(SimulatedNetwork network, SimulatedCapacity capacity);

    Optional<ResourceDescription> describe(
            String identifier, SimulatedNetwork network, SimulatedCapacity capacity, Instant now) {
        return read(identifier, network, capacity, now).map(properties -> ResourceDescription.builder()
                .identifier(identifier)
                .properties(Json.write(properties))
                .build());
    }

    List<ResourceDescription> describeAll(SimulatedNetwork network, SimulatedCapacity capacity, Instant now) {
        return identifiers(network, capacity).stream()
                .map(id -> describe(id, network, capacity, now).orElseThrow())
                .toList();
    }

    static CloudControlReadTypes byName(String typeName) {
        for (CloudControlReadTypes type : values()) {
            if (type.typeName.equals(typeName)) {
                return type;
            }
        }
        return null;
    }
}
