package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.cloudcontrol.model.ProgressEvent;
import software.amazon.awssdk.services.eks.model.CapacityTypes;
import software.amazon.awssdk.services.eks.model.CreateNodegroupRequest;
import software.amazon.awssdk.services.eks.model.InvalidParameterException;
import software.amazon.awssdk.services.eks.model.Issue;
import software.amazon.awssdk.services.eks.model.LaunchTemplateSpecification;
import software.amazon.awssdk.services.eks.model.Nodegroup;
import software.amazon.awssdk.services.eks.model.NodegroupIssueCode;
import software.amazon.awssdk.services.eks.model.NodegroupStatus;

/** Node groups whose launch template targets a capacity reservation or a Capacity Block, as EKS and EC2 take them. */
class SimulatedEksCapacityTest {
    static final String CLUSTER = "tp-cap-eks";
    static final String BLOCK = SimulatedCapacity.EXAMPLE_BLOCK;
    static final String ODCR = SimulatedCapacity.STACK_ODCR;
    static final List<String> ZONE_A = List.of(SimulatedNetwork.SUBNET_1A);
    static final List<String> ZONE_B = List.of(SimulatedNetwork.SUBNET_1B);

    final SimAccount sim = new SimAccount();

    @BeforeEach
    void activeCluster() {
        sim.eks.createCluster(SimAccount.cluster(CLUSTER, "tok", "cap"));
        sim.advance(SimulatedEks.CLUSTER_CREATING);
    }

    /** A launch template made through Cloud Control, once it exists. */
    String template(String launchTemplateData) {
        ProgressEvent accepted = sim.cloudControl
                .createResource(r -> r.typeName("AWS::EC2::LaunchTemplate")
                        .desiredState("{\"LaunchTemplateData\": " + launchTemplateData + "}"))
                .progressEvent();
        sim.advance(SimulatedCloudControl.OPERATION);
        return sim.cloudControl
                .getResourceRequestStatus(r -> r.requestToken(accepted.requestToken()))
                .progressEvent()
                .identifier();
    }

    String blockTemplate(String reservation, String instanceType, String extra) {
        return template(
                """
                {"InstanceMarketOptions": {"MarketType": "capacity-block"},
                 "CapacityReservationSpecification": {"CapacityReservationTarget": {"CapacityReservationId": "%s"}},
                 "InstanceType": "%s" %s}"""
                        .formatted(reservation, instanceType, extra));
    }

    String reservationTemplate(String reservation) {
        return template(
                """
                {"CapacityReservationSpecification": {"CapacityReservationTarget": {"CapacityReservationId": "%s"}}}"""
                        .formatted(reservation));
    }

    static CreateNodegroupRequest nodegroup(
            String name,
            CapacityTypes capacity,
            String launchTemplate,
            List<String> subnets,
            int nodes,
            String... instanceTypes) {
        return SimAccount.nodegroup(CLUSTER, name, name, "cap").toBuilder()
                .capacityType(capacity)
                .launchTemplate(
                        launchTemplate == null
                                ? null
                                : LaunchTemplateSpecification.builder()
                                        .id(launchTemplate)
                                        .build())
                .subnets(subnets)
                .instanceTypes(instanceTypes)
                .scalingConfig(s -> s.minSize(nodes).maxSize(nodes).desiredSize(nodes))
                .build();
    }

    Nodegroup createdAndSettled(CreateNodegroupRequest request) {
        sim.eks.createNodegroup(request);
        sim.advance(SimulatedEks.NODEGROUP_CREATING);
        return sim.eks
                .describeNodegroup(r -> r.clusterName(CLUSTER).nodegroupName(request.nodegroupName()))
                .nodegroup();
    }

    static void assertLaunchFailure(Nodegroup nodegroup, String ec2Error) {
        assertThat(nodegroup.status()).isEqualTo(NodegroupStatus.CREATE_FAILED);
        Issue issue = nodegroup.health().issues().getFirst();
        assertThat(issue.code()).isEqualTo(NodegroupIssueCode.ASG_INSTANCE_LAUNCH_FAILURES);
        assertThat(issue.message()).startsWith("Could not launch On-Demand Instances. " + ec2Error);
        assertThat(issue.resourceIds())
                .containsExactly(
                        nodegroup.resources().autoScalingGroups().getFirst().name());
    }

    @Test
    void aCapacityBlockNodeGroupInTheBlocksZoneWithItsInstanceTypeBecomesActive() {
        Nodegroup nodes = createdAndSettled(
                nodegroup("block", CapacityTypes.CAPACITY_BLOCK, blockTemplate(BLOCK, "p4d.24xlarge", ""), ZONE_A, 2));

        assertThat(nodes.status()).isEqualTo(NodegroupStatus.ACTIVE);
        assertThat(nodes.health().issues()).isEmpty();
        assertThat(sim.capacity.available(BLOCK))
                .as("both instances run in the block")
                .isZero();
    }

    @Test
    void eksRefusesACapacityBlockWithoutTheTemplateItNeeds() {
        assertThatThrownBy(() -> sim.eks.createNodegroup(
                        nodegroup("bare", CapacityTypes.CAPACITY_BLOCK, null, ZONE_A, 2, "p4d.24xlarge")))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("Launch template is required");
        String noInstanceType = template(
                """
                {"InstanceMarketOptions": {"MarketType": "capacity-block"},
                 "CapacityReservationSpecification": {"CapacityReservationTarget": {"CapacityReservationId": "%s"}}}"""
                        .formatted(BLOCK));
        assertThatThrownBy(() -> sim.eks.createNodegroup(
                        nodegroup("no-type", CapacityTypes.CAPACITY_BLOCK, noInstanceType, ZONE_A, 2, "p4d.24xlarge")))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("InstanceType");
        String noMarket = reservationTemplate(BLOCK);
        assertThatThrownBy(() -> sim.eks.createNodegroup(
                        nodegroup("no-market", CapacityTypes.CAPACITY_BLOCK, noMarket, ZONE_A, 2)))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("capacity-block");
        assertThat(sim.eks.listNodegroups(r -> r.clusterName(CLUSTER)).nodegroups())
                .isEmpty();
    }

    @Test
    void eksRefusesACapacityBlockTemplateUnderAnotherCapacityTypeAndAnInstanceTypeGivenTwice() {
        String block = blockTemplate(BLOCK, "p4d.24xlarge", "");

        assertThatThrownBy(() ->
                        sim.eks.createNodegroup(nodegroup("on-demand", CapacityTypes.ON_DEMAND, block, ZONE_A, 2)))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("requires capacityType CAPACITY_BLOCK");
        assertThatThrownBy(() -> sim.eks.createNodegroup(
                        nodegroup("twice", CapacityTypes.CAPACITY_BLOCK, block, ZONE_A, 2, "p4d.24xlarge")))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("Cannot specify instance types in launch template and API request");
        assertThatThrownBy(() -> sim.eks.createNodegroup(
                        nodegroup("ghost", CapacityTypes.ON_DEMAND, "lt-0000000000000dead", ZONE_A, 2)))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("lt-0000000000000dead, does not exist");
    }

    @Test
    void subnetsOutsideTheReservationsZoneFailTheLaunch() {
        Nodegroup nodes = createdAndSettled(nodegroup(
                "two-zones",
                CapacityTypes.CAPACITY_BLOCK,
                blockTemplate(BLOCK, "p4d.24xlarge", ""),
                List.of(SimulatedNetwork.SUBNET_1A, SimulatedNetwork.SUBNET_1B),
                2));

        assertLaunchFailure(
                nodes, "ReservationCapacityExceeded - The requested reservation does not have sufficient compatible");
        assertThat(sim.capacity.available(BLOCK)).as("nothing launched").isEqualTo(2);
    }

    @Test
    void anotherInstanceTypeThanTheReservationsFailsTheLaunch() {
        assertLaunchFailure(
                createdAndSettled(nodegroup(
                        "p5", CapacityTypes.CAPACITY_BLOCK, blockTemplate(BLOCK, "p5.48xlarge", ""), ZONE_A, 2)),
                "ReservationCapacityExceeded");
        assertLaunchFailure(
                createdAndSettled(
                        nodegroup("g6", CapacityTypes.ON_DEMAND, reservationTemplate(ODCR), ZONE_B, 2, "g6.12xlarge")),
                "ReservationCapacityExceeded");
    }

    @Test
    void aReservationThatIsMissingScheduledOrOverFailsTheLaunch() {
        assertLaunchFailure(
                createdAndSettled(nodegroup(
                        "missing",
                        CapacityTypes.CAPACITY_BLOCK,
                        blockTemplate("cr-0aaaaaaaaaaaaaaaa", "p4d.24xlarge", ""),
                        ZONE_A,
                        2)),
                "InvalidCapacityReservationId.NotFound");

        sim.capacity.add(new SimulatedCapacity.Reservation(
                "cr-0later0000000000",
                "capacity-block",
                "p4d.24xlarge",
                2,
                "us-east-1a",
                sim.clock.instant().plus(Duration.ofDays(1)),
                sim.clock.instant().plus(Duration.ofDays(3))));
        assertLaunchFailure(
                createdAndSettled(nodegroup(
                        "early",
                        CapacityTypes.CAPACITY_BLOCK,
                        blockTemplate("cr-0later0000000000", "p4d.24xlarge", ""),
                        ZONE_A,
                        2)),
                "InsufficientInstanceCapacity - We currently do not have sufficient p4d.24xlarge capacity");

        sim.advance(SimulatedCapacity.EXAMPLE_BLOCK_LENGTH);
        assertLaunchFailure(
                createdAndSettled(nodegroup(
                        "late", CapacityTypes.CAPACITY_BLOCK, blockTemplate(BLOCK, "p4d.24xlarge", ""), ZONE_A, 2)),
                "ReservationCapacityExceeded");
    }

    @Test
    void aCapacityBlockTakesNoPlacementGroup() {
        Nodegroup nodes = createdAndSettled(nodegroup(
                "placed",
                CapacityTypes.CAPACITY_BLOCK,
                blockTemplate(BLOCK, "p4d.24xlarge", ", \"Placement\": {\"GroupName\": \"pg-0123\"}"),
                ZONE_A,
                2));

        assertLaunchFailure(nodes, "InvalidParameterCombination");
        assertThat(nodes.health().issues().getFirst().message()).contains("placement group");
    }

    @Test
    void instancesTakeRoomInTheReservationUntilTheirNodeGroupIsDeleted() {
        assertThat(createdAndSettled(nodegroup(
                                "first", CapacityTypes.ON_DEMAND, reservationTemplate(ODCR), ZONE_B, 3, "g5.12xlarge"))
                        .status())
                .isEqualTo(NodegroupStatus.ACTIVE);
        assertThat(reservation(ODCR).get("AvailableInstanceCount").asInt()).isEqualTo(1);

        assertLaunchFailure(
                createdAndSettled(nodegroup(
                        "second", CapacityTypes.ON_DEMAND, reservationTemplate(ODCR), ZONE_B, 2, "g5.12xlarge")),
                "ReservationCapacityExceeded");

        sim.eks.deleteNodegroup(r -> r.clusterName(CLUSTER).nodegroupName("first"));
        assertThat(reservation(ODCR).get("AvailableInstanceCount").asInt()).isEqualTo(4);
        assertThat(createdAndSettled(nodegroup(
                                "third", CapacityTypes.ON_DEMAND, reservationTemplate(ODCR), ZONE_B, 2, "g5.12xlarge"))
                        .status())
                .isEqualTo(NodegroupStatus.ACTIVE);
    }

    @Test
    void aFailedNodeGroupCanBeDeleted() {
        createdAndSettled(
                nodegroup("doomed", CapacityTypes.CAPACITY_BLOCK, blockTemplate(BLOCK, "p5.48xlarge", ""), ZONE_A, 2));

        sim.eks.deleteNodegroup(r -> r.clusterName(CLUSTER).nodegroupName("doomed"));
        sim.advance(SimulatedEks.NODEGROUP_DELETING);
        assertThat(sim.eks.listNodegroups(r -> r.clusterName(CLUSTER)).nodegroups())
                .isEmpty();
    }

    JsonNode reservation(String id) {
        return Json.read(sim.cloudControl
                .getResource(r -> r.typeName("AWS::EC2::CapacityReservation").identifier(id))
                .resourceDescription()
                .properties());
    }
}
