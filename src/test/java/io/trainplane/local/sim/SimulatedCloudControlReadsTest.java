package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import io.trainplane.local.asl.SimulatedClock;
import io.trainplane.local.iam.AuditEntry;
import io.trainplane.local.iam.Authorizer;
import io.trainplane.local.iam.Decision;
import io.trainplane.local.iam.IamRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.cloudcontrol.model.ResourceDescription;
import software.amazon.awssdk.services.cloudcontrol.model.ResourceNotFoundException;
import software.amazon.awssdk.services.cloudcontrol.model.UnsupportedActionException;

/** What the simulated account has from the start, read through Cloud Control: capacity reservations and subnets. */
class SimulatedCloudControlReadsTest {
    static final String RESERVATION = "AWS::EC2::CapacityReservation";
    static final String SUBNET = "AWS::EC2::Subnet";

    final SimAccount sim = new SimAccount();

    JsonNode read(String type, String id) {
        return Json.read(sim.cloudControl
                .getResource(r -> r.typeName(type).identifier(id))
                .resourceDescription()
                .properties());
    }

    @Test
    void theExampleCapacityBlockIsReadWithTheSchemasPropertyNames() {
        JsonNode block = read(RESERVATION, SimulatedCapacity.EXAMPLE_BLOCK);

        assertThat(block.get("Id").asText()).isEqualTo("cr-0123456789abcdef0");
        assertThat(block.get("AvailabilityZone").asText()).isEqualTo("us-east-1a");
        assertThat(block.get("AvailabilityZoneId").asText()).isEqualTo("use1-az1");
        assertThat(block.get("InstanceType").asText()).isEqualTo("p4d.24xlarge");
        assertThat(block.get("InstanceCount").asInt()).isEqualTo(2);
        assertThat(block.get("AvailableInstanceCount").asInt()).isEqualTo(2);
        assertThat(block.get("ReservationType").asText()).isEqualTo("capacity-block");
        assertThat(block.get("InstanceMatchCriteria").asText()).isEqualTo("targeted");
        assertThat(block.get("State").asText()).isEqualTo("active");
        assertThat(block.get("EndDateType").asText()).isEqualTo("limited");
        assertThat(block.get("CapacityReservationArn").asText())
                .isEqualTo("arn:aws:ec2:us-east-1:000000000000:capacity-reservation/cr-0123456789abcdef0");
    }

    @Test
    void aReservationsStateFollowsTheClock() {
        sim.capacity.add(new SimulatedCapacity.Reservation(
                "cr-0future000000000",
                "capacity-block",
                "p5.48xlarge",
                1,
                "us-east-1b",
                SimAccount.START.plus(Duration.ofDays(1)),
                SimAccount.START.plus(Duration.ofDays(2))));

        assertThat(read(RESERVATION, "cr-0future000000000").get("State").asText())
                .isEqualTo("scheduled");
        sim.advance(Duration.ofDays(1));
        assertThat(read(RESERVATION, "cr-0future000000000").get("State").asText())
                .isEqualTo("active");
        sim.advance(Duration.ofDays(1));
        assertThat(read(RESERVATION, "cr-0future000000000").get("State").asText())
                .isEqualTo("expired");
        assertThat(read(RESERVATION, SimulatedCapacity.STACK_ODCR).get("State").asText())
                .as("no end date")
                .isEqualTo("active");
    }

    @Test
    void subnetsAreReadWithTheirZoneAndVpc() {
        JsonNode subnet = read(SUBNET, SimulatedNetwork.SUBNET_1B);

        assertThat(subnet.get("SubnetId").asText()).isEqualTo(SimulatedNetwork.SUBNET_1B);
        assertThat(subnet.get("AvailabilityZone").asText()).isEqualTo("us-east-1b");
        assertThat(subnet.get("VpcId").asText()).isEqualTo(SimulatedNetwork.STACK_VPC);
        assertThat(subnet.get("CidrBlock").asText()).isEqualTo("10.0.16.0/20");
    }

    @Test
    void unknownIdsAreNotFoundAndTheTypesAreNotCreatedHere() {
        assertThatThrownBy(() -> read(RESERVATION, "cr-0aaaaaaaaaaaaaaaa"))
                .isInstanceOf(ResourceNotFoundException.class)
                .hasMessageContaining("cr-0aaaaaaaaaaaaaaaa");
        assertThatThrownBy(() -> read(SUBNET, "subnet-0gone")).isInstanceOf(ResourceNotFoundException.class);
        assertThatThrownBy(() -> sim.cloudControl.createResource(
                        r -> r.typeName(RESERVATION).desiredState("{}")))
                .isInstanceOf(UnsupportedActionException.class);
    }

    @Test
    void listingGivesEveryReservationAndSubnet() {
        List<String> reservations =
                sim.cloudControl.listResources(r -> r.typeName(RESERVATION)).resourceDescriptions().stream()
                        .map(ResourceDescription::identifier)
                        .toList();
        List<String> subnets = sim.cloudControl.listResources(r -> r.typeName(SUBNET)).resourceDescriptions().stream()
                .map(ResourceDescription::identifier)
                .toList();

        assertThat(reservations).containsExactly(SimulatedCapacity.EXAMPLE_BLOCK, SimulatedCapacity.STACK_ODCR);
        assertThat(subnets)
                .contains(SimulatedNetwork.SUBNET_1A, SimulatedNetwork.SUBNET_1B)
                .hasSize(4);
    }

    @Test
    void theReadHandlersAskIamForTheDescribeActionsOnEveryResource() {
        List<IamRequest> asked = new ArrayList<>();
        Authorizer recording = (caller, request) -> {
            asked.add(request);
            return AuditEntry.of(caller, request, Decision.Allowed, null);
        };
        var cloudControl = new SimulatedCloudControl(
                        new CallLog(), new SimulatedClock(SimAccount.START), new FaultPlan(), recording)
                .reading(SimulatedNetwork.stack(), SimulatedCapacity.stack(SimAccount.START));

        cloudControl.getResource(r -> r.typeName(RESERVATION).identifier(SimulatedCapacity.EXAMPLE_BLOCK));
        assertThat(asked)
                .extracting(IamRequest::action, IamRequest::resource)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("cloudformation:GetResource", "*"),
                        org.assertj.core.groups.Tuple.tuple("ec2:DescribeCapacityReservations", "*"));
        asked.clear();
        cloudControl.getResource(r -> r.typeName(SUBNET).identifier(SimulatedNetwork.SUBNET_1A));
        assertThat(asked)
                .extracting(IamRequest::action)
                .containsExactly("cloudformation:GetResource", "ec2:DescribeSubnets", "ec2:DescribeNetworkAcls");
    }

    @Test
    void aDeniedReadHandlerFailsTheCallWithoutAnswering() {
        Authorizer noReservations = (caller, request) -> AuditEntry.of(
                caller,
                request,
                request.action().equals("ec2:DescribeCapacityReservations")
                        ? Decision.ImplicitlyDenied
                        : Decision.Allowed,
                null);
        var cloudControl = new SimulatedCloudControl(
                new CallLog(), new SimulatedClock(SimAccount.START), new FaultPlan(), noReservations);

        assertThatThrownBy(() -> cloudControl.getResource(
                        r -> r.typeName(RESERVATION).identifier(SimulatedCapacity.EXAMPLE_BLOCK)))
                .hasMessageContaining("ec2:DescribeCapacityReservations");
    }
}
