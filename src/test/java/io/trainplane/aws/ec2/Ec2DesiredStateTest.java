package io.trainplane.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.aws.RunTags;
import io.trainplane.spec.CapacityType;
import io.trainplane.spec.Names;
import io.trainplane.spec.NodeGroupSpec;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.cloudcontrol.model.CreateResourceRequest;

class Ec2DesiredStateTest {
    static final String RUN_TAGS = "[{\"Key\":\"trainplane:run-id\",\"Value\":\"llm-pretrain-7\"},"
            + "{\"Key\":\"trainplane:stack\",\"Value\":\"ml-prod\"}]";
    final Names names = new Names("llm-pretrain-7");
    final RunTags tags = new RunTags("ml-prod", "llm-pretrain-7");

    static NodeGroupSpec nodes(String type, CapacityType capacity, String reservation, boolean efa) {
        return new NodeGroupSpec(type, 2, 8, capacity, reservation, efa);
    }

    @Test
    void onlyEfaNodesNeedAPlacementGroup() {
        assertThat(Ec2DesiredState.needsPlacementGroup(nodes("g5.12xlarge", CapacityType.ON_DEMAND, null, false)))
                .isFalse();
        assertThat(Ec2DesiredState.needsPlacementGroup(
                        nodes("g5.12xlarge", CapacityType.SPOT, "cr-0123456789abcdef0", false)))
                .isFalse();
        assertThat(Ec2DesiredState.needsPlacementGroup(nodes("p5.48xlarge", CapacityType.ON_DEMAND, null, true)))
                .isTrue();
    }

    @Test
    void everyTemplateRequiresImdsV2WithAHopLimitOfOne() {
        for (NodeGroupSpec spec : List.of(
                nodes("m6i.large", CapacityType.ON_DEMAND, null, false),
                nodes("g5.12xlarge", CapacityType.SPOT, null, false),
                nodes("p5.48xlarge", CapacityType.CAPACITY_BLOCK, "cr-0123456789abcdef0", true))) {
            JsonNode metadata = Ec2DesiredState.launchTemplate(names, tags, spec, Optional.empty(), List.of())
                    .at("/LaunchTemplateData/MetadataOptions");
            assertThat(metadata.toString())
                    .as(spec.instanceType())
                    .isEqualTo(
                            "{\"HttpEndpoint\":\"enabled\",\"HttpTokens\":\"required\",\"HttpPutResponseHopLimit\":1}");
        }
    }

    @Test
    void theSystemNodeGroupsTemplateCarriesOnlyTheMetadataOptionsTheRootVolumeAndTheRunsTags() {
        ObjectNode template = Ec2DesiredState.systemLaunchTemplate(names, tags, 30);

        assertThat(template.path("LaunchTemplateName").asText())
                .isEqualTo("tp-llm-pretrain-7-system")
                .isNotEqualTo(Ec2DesiredState.launchTemplateName(names));
        JsonNode data = template.path("LaunchTemplateData");
        assertThat(data.path("MetadataOptions").toString())
                .isEqualTo("{\"HttpEndpoint\":\"enabled\",\"HttpTokens\":\"required\",\"HttpPutResponseHopLimit\":1}");
        // No reservation, market, instance type, EFA or placement: EKS fills in the rest.
        assertThat(data.fieldNames())
                .toIterable()
                .containsExactly("MetadataOptions", "BlockDeviceMappings", "TagSpecifications");
        assertThat(data.path("BlockDeviceMappings").toString())
                .isEqualTo("[{\"DeviceName\":\"/dev/xvda\",\"Ebs\":{\"VolumeSize\":30,\"VolumeType\":\"gp3\","
                        + "\"Encrypted\":true,\"DeleteOnTermination\":true}}]");
        assertThat(data.path("TagSpecifications").toString())
                .isEqualTo("[{\"ResourceType\":\"instance\",\"Tags\":" + RUN_TAGS + "},"
                        + "{\"ResourceType\":\"volume\",\"Tags\":" + RUN_TAGS + "}]");
        assertThat(template.path("TagSpecifications").toString())
                .isEqualTo("[{\"ResourceType\":\"launch-template\",\"Tags\":" + RUN_TAGS + "}]");

        CreateResourceRequest request = Ec2DesiredState.createSystemLaunchTemplate(names, tags, 30);
        assertThat(request.typeName()).isEqualTo("AWS::EC2::LaunchTemplate");
        // Its own token: a retried create of one template is never taken for the other.
        assertThat(request.clientToken())
                .isEqualTo(names.clientRequestToken("system-launch-template"))
                .isNotEqualTo(names.clientRequestToken("launch-template"));
        assertThat(Ec2DesiredState.createSystemLaunchTemplate(new Names("llm-pretrain-7"), tags, 30))
                .isEqualTo(request);
    }

    @Test
    void efaInACapacityBlockNeedsNoPlacementGroupButAnOnDemandReservationKeepsIt() {
        assertThat(Ec2DesiredState.needsPlacementGroup(
                        nodes("p4d.24xlarge", CapacityType.CAPACITY_BLOCK, "cr-0123456789abcdef0", true)))
                .isFalse();
        assertThat(Ec2DesiredState.needsPlacementGroup(
                        nodes("p4d.24xlarge", CapacityType.ON_DEMAND, "cr-0123456789abcdef0", true)))
                .isTrue();
    }

    @Test
    void aCapacityBlockIsTheCapacityBlockMarketTargetingItsReservationWithItsInstanceType() {
        ObjectNode template = Ec2DesiredState.launchTemplate(
                names,
                tags,
                nodes("p5.48xlarge", CapacityType.CAPACITY_BLOCK, "cr-0123456789abcdef0", false),
                Optional.empty(),
                List.of());

        assertThat(Ec2DesiredState.json(template))
                .isEqualTo(
                        """
                {"LaunchTemplateName":"tp-llm-pretrain-7-nodes","LaunchTemplateData":{\
                "MetadataOptions":{"HttpEndpoint":"enabled","HttpTokens":"required","HttpPutResponseHopLimit":1},\
                "BlockDeviceMappings":[{"DeviceName":"/dev/xvda","Ebs":{"VolumeSize":20,"VolumeType":"gp3",\
                "Encrypted":true,"DeleteOnTermination":true}}],\
                "CapacityReservationSpecification":{"CapacityReservationTarget":{"CapacityReservationId":"cr-0123456789abcdef0"}},\
                "InstanceMarketOptions":{"MarketType":"capacity-block"},"InstanceType":"p5.48xlarge",\
                "TagSpecifications":[\
                {"ResourceType":"instance","Tags":%1$s},{"ResourceType":"volume","Tags":%1$s}]},\
                "TagSpecifications":[{"ResourceType":"launch-template","Tags":%1$s}]}"""
                                .formatted(RUN_TAGS));
    }

    @Test
    void anOnDemandReservationIsTargetedWithoutAMarketType() {
        JsonNode data = Ec2DesiredState.launchTemplate(
                        names,
                        tags,
                        nodes("g5.12xlarge", CapacityType.ON_DEMAND, "cr-0123456789abcdef0", false),
                        Optional.empty(),
                        List.of())
                .get("LaunchTemplateData");

        assertThat(data.at("/CapacityReservationSpecification/CapacityReservationTarget/CapacityReservationId")
                        .asText())
                .isEqualTo("cr-0123456789abcdef0");
        assertThat(data.has("InstanceMarketOptions")).isFalse();
        assertThat(data.has("InstanceType")).as("the node group names it").isFalse();
        assertThat(data.has("NetworkInterfaces")).isFalse();
        assertThat(data.has("Placement")).isFalse();
    }

    @Test
    void aCapacityBlockWithoutItsReservationIsRefused() {
        assertThatThrownBy(() -> Ec2DesiredState.launchTemplate(
                        names,
                        tags,
                        nodes("p5.48xlarge", CapacityType.CAPACITY_BLOCK, null, false),
                        Optional.empty(),
                        List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("capacityReservationId");
    }

    @Test
    void efaGivesOneInterfacePerNetworkCard() {
        assertThat(interfaces("p4d.24xlarge")).hasSize(4);
        assertThat(interfaces("p5.48xlarge")).hasSize(32);
        assertThat(interfaces("p5e.48xlarge")).hasSize(32);
        assertThat(interfaces("p5en.48xlarge")).hasSize(16);
        assertThat(interfaces("trn1.32xlarge")).hasSize(8);
        assertThat(interfaces("g5.48xlarge")).hasSize(1);
        assertThat(interfaces("g6.12xlarge")).hasSize(1);
        assertThat(interfaces("x9z.huge")).hasSize(1);
        assertThat(EfaInterfaces.known("g6.12xlarge")).isTrue();
        assertThat(EfaInterfaces.known("g5.xlarge")).isFalse();
        assertThat(EfaInterfaces.known("x9z.huge")).isFalse();
    }

    @Test
    void thePrimaryCardHasDeviceZeroAndTheOthersDeviceOne() {
        List<JsonNode> nics = interfaces("p4d.24xlarge");

        assertThat(nics).extracting(n -> n.get("NetworkCardIndex").asInt()).containsExactly(0, 1, 2, 3);
        assertThat(nics).extracting(n -> n.get("DeviceIndex").asInt()).containsExactly(0, 1, 1, 1);
        assertThat(nics).allSatisfy(n -> {
            assertThat(n.get("InterfaceType").asText()).isEqualTo("efa");
            assertThat(n.get("DeleteOnTermination").asBoolean()).isTrue();
            assertThat(n.get("Groups").toString()).isEqualTo("[\"sg-cluster\",\"sg-efa\"]");
            assertThat(n.has("SubnetId")).isFalse(); // EKS chooses the subnet
        });
    }

    @Test
    void thePlacementGroupIsNamedInThePlacement() {
        JsonNode data = Ec2DesiredState.launchTemplate(
                        names,
                        tags,
                        nodes("p5.48xlarge", CapacityType.ON_DEMAND, null, true),
                        Optional.of("tp-pg-1"),
                        List.of())
                .get("LaunchTemplateData");

        assertThat(data.at("/Placement/GroupName").asText()).isEqualTo("tp-pg-1");
        assertThat(data.get("NetworkInterfaces").get(0).has("Groups")).isFalse();
    }

    @Test
    void aPlacementGroupIsAClusterTaggedWithTheRunAndTheStack() {
        assertThat(Ec2DesiredState.json(Ec2DesiredState.placementGroup(tags)))
                .isEqualTo("{\"Strategy\":\"cluster\",\"Tags\":" + RUN_TAGS + "}");
    }

    @Test
    void requestsCarryTheTypeTheRunsClientTokenAndTheSameJsonEveryTime() {
        NodeGroupSpec efa = nodes("p5.48xlarge", CapacityType.CAPACITY_BLOCK, "cr-0123456789abcdef0", true);
        CreateResourceRequest template =
                Ec2DesiredState.createLaunchTemplate(names, tags, efa, Optional.of("pg"), List.of("sg-1"));
        CreateResourceRequest group = Ec2DesiredState.createPlacementGroup(names, tags);

        assertThat(template.typeName()).isEqualTo("AWS::EC2::LaunchTemplate");
        assertThat(template.clientToken()).isEqualTo(names.clientRequestToken("launch-template"));
        assertThat(group.typeName()).isEqualTo("AWS::EC2::PlacementGroup");
        assertThat(group.clientToken()).isEqualTo(names.clientRequestToken("placement-group"));
        assertThat(group.clientToken()).isNotEqualTo(template.clientToken()).matches("[-A-Za-z0-9+/=]{1,128}");
        assertThat(Ec2DesiredState.createLaunchTemplate(
                        new Names("llm-pretrain-7"),
                        new RunTags("ml-prod", "llm-pretrain-7"),
                        efa,
                        Optional.of("pg"),
                        List.of("sg-1")))
                .isEqualTo(template);
    }

    @Test
    void theLaunchTemplateNameFitsEc2sLimit() {
        String longest = "r" + "x".repeat(Names.MAX_RUN_ID - 2) + "9";
        assertThat(Ec2DesiredState.launchTemplateName(new Names(longest)))
                .hasSizeLessThanOrEqualTo(128)
                .matches("[a-zA-Z0-9().\\-/_]{3,128}");
        assertThat(Ec2DesiredState.systemLaunchTemplateName(new Names(longest)))
                .hasSizeLessThanOrEqualTo(128)
                .matches("[a-zA-Z0-9().\\-/_]{3,128}");
    }

    @Test
    void desiredStatesAreValidAgainstTheCloudFormationSchemas() throws Exception {
        CfnSchemas schemas = CfnSchemas.fromCfnLint();
        NodeGroupSpec everything = nodes("p5.48xlarge", CapacityType.CAPACITY_BLOCK, "cr-0123456789abcdef0", true);

        assertThat(schemas.validate(
                        Ec2DesiredState.LAUNCH_TEMPLATE,
                        Ec2DesiredState.launchTemplate(names, tags, everything, Optional.of("pg-1"), List.of("sg-1"))))
                .isEmpty();
        assertThat(schemas.validate(
                        Ec2DesiredState.LAUNCH_TEMPLATE,
                        Ec2DesiredState.launchTemplate(
                                names,
                                tags,
                                nodes("g5.12xlarge", CapacityType.ON_DEMAND, "cr-0123456789abcdef0", false),
                                Optional.empty(),
                                List.of())))
                .isEmpty();
        assertThat(schemas.validate(
                        Ec2DesiredState.LAUNCH_TEMPLATE, Ec2DesiredState.systemLaunchTemplate(names, tags, 30)))
                .isEmpty();
        assertThat(schemas.validate(Ec2DesiredState.PLACEMENT_GROUP, Ec2DesiredState.placementGroup(tags)))
                .isEmpty();
        ObjectNode wrong = Ec2DesiredState.placementGroup(tags).put("Strategy", "clustered");
        assertThat(schemas.validate(Ec2DesiredState.PLACEMENT_GROUP, wrong)).isNotEmpty(); // the check has teeth
        ObjectNode misspelt = Ec2DesiredState.launchTemplate(names, tags, everything, Optional.empty(), List.of());
        ((ObjectNode) misspelt.get("LaunchTemplateData"))
                .putObject("InstanceMarketOption")
                .put("MarketType", "spot");
        assertThat(schemas.validate(Ec2DesiredState.LAUNCH_TEMPLATE, misspelt)).isNotEmpty();
        assertThat(schemas.validate(ControlPlaneLogGroup.TYPE, ControlPlaneLogGroup.desiredState(names, tags, 30)))
                .isEmpty();
        assertThat(schemas.validate(ControlPlaneLogGroup.TYPE, ControlPlaneLogGroup.desiredState(names, tags, 31)))
                .isNotEmpty();
        ObjectNode badTokens = Ec2DesiredState.launchTemplate(names, tags, everything, Optional.empty(), List.of());
        ((ObjectNode) badTokens.at("/LaunchTemplateData/MetadataOptions")).put("HttpTokens", "mandatory");
        assertThat(schemas.validate(Ec2DesiredState.LAUNCH_TEMPLATE, badTokens)).isNotEmpty();
    }

    private List<JsonNode> interfaces(String instanceType) {
        JsonNode nics = Ec2DesiredState.launchTemplate(
                        names,
                        tags,
                        nodes(instanceType, CapacityType.ON_DEMAND, null, true),
                        Optional.empty(),
                        List.of("sg-cluster", "sg-efa"))
                .at("/LaunchTemplateData/NetworkInterfaces");
        return IntStream.range(0, nics.size()).mapToObj(nics::get).toList();
    }
}
