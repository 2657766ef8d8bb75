package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.local.sim.SimulatedCapacity;
import io.trainplane.local.sim.SimulatedNetwork;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.eks.model.CapacityTypes;
import software.amazon.awssdk.services.eks.model.Nodegroup;
import software.amazon.awssdk.services.eks.model.NodegroupStatus;

/**
 * Node groups in capacity reservations, end to end: examples/multi-node-efa.json in the simulated
 * account's Capacity Block, an On-Demand Capacity Reservation, and what CreateNodegroup refuses
 * before it creates anything. IAM is not what these runs test (StackPoliciesNeededTest does):
 * they run with everything allowed, but for the one that checks the lookups' IAM questions.
 */
class CapacityReservationRunTest {
    /** What the functions ask of IAM to look a reservation and the stack's subnets up through Cloud Control. */
    static String efaExample;

    @BeforeAll
    static void example() throws IOException {
        efaExample = Files.readString(Path.of("examples/multi-node-efa.json"));
    }

    record Outcome(RunReport report, Nodegroup nodegroup, JsonNode launchTemplateData) {}

    /** Runs {@code spec} (changed by {@code change}) keeping its cluster, and reads the node group it left. */
    static Outcome run(String spec, Consumer<ObjectNode> change, Consumer<LocalCloud> setUp) {
        ObjectNode json = (ObjectNode) Json.read(spec);
        ((ObjectNode) json.get("cleanup")).put("keepCluster", true);
        change.accept(json);
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            setUp.accept(cloud);
            RunReport report = new LocalRun(cloud, Faults.none(), e -> {})
                    .execute(
                            RunSpecs.normalize(Json.write(json)),
                            json.get("runId").asText());
            String cluster = "tp-" + json.get("runId").asText() + "-eks";
            if (!cloud.eks().listClusters(r -> {}).clusters().contains(cluster)) {
                return new Outcome(report, null, null); // refused before the cluster was created
            }
            Nodegroup nodegroup = cloud.eks().listNodegroups(r -> r.clusterName(cluster)).nodegroups().stream()
                    .findFirst()
                    .map(name -> cloud.eks()
                            .describeNodegroup(r -> r.clusterName(cluster).nodegroupName(name))
                            .nodegroup())
                    .orElse(null);
            JsonNode data = nodegroup == null || nodegroup.launchTemplate() == null
                    ? null
                    : cloud.cloudControl()
                            .launchTemplateData(nodegroup.launchTemplate().id(), null)
                            .orElse(null);
            return new Outcome(report, nodegroup, data);
        }
    }

    static ObjectNode nodeGroup(ObjectNode spec) {
        return (ObjectNode) spec.at("/cluster/nodeGroup");
    }

    @Test
    void theEfaExampleRunsInItsCapacityBlockFromTheBlocksZoneWithoutAPlacementGroup() {
        Outcome out = run(efaExample, spec -> {}, cloud -> {});

        assertThat(out.report().status()).as(out.report().error() + "").isEqualTo("SUCCEEDED");
        assertThat(out.nodegroup().status()).isEqualTo(NodegroupStatus.ACTIVE);
        assertThat(out.nodegroup().subnets())
                .as("the stack's subnet in us-east-1a only")
                .containsExactly(SimulatedNetwork.SUBNET_1A);
        assertThat(out.nodegroup().capacityType()).isEqualTo(CapacityTypes.CAPACITY_BLOCK);
        assertThat(out.launchTemplateData().get("InstanceType").asText()).isEqualTo("p4d.24xlarge");
        assertThat(out.launchTemplateData()
                        .at("/InstanceMarketOptions/MarketType")
                        .asText())
                .isEqualTo("capacity-block");
        assertThat(out.launchTemplateData()
                        .at("/CapacityReservationSpecification/CapacityReservationTarget/CapacityReservationId")
                        .asText())
                .isEqualTo(SimulatedCapacity.EXAMPLE_BLOCK);
        assertThat(out.launchTemplateData().has("Placement")).isFalse();
        assertThat(out.launchTemplateData().get("NetworkInterfaces"))
                .as("EFA interfaces stay")
                .hasSize(4);
        assertThat(out.report().resources().created())
                .noneMatch(ref -> ref.startsWith("ec2:placement-group/"))
                .anyMatch(ref -> ref.startsWith("ec2:launch-template/"));
    }

    @Test
    void anOnDemandReservationGetsTheSubnetsOfItsZone() {
        Outcome out = run(
                efaExample,
                spec -> {
                    nodeGroup(spec)
                            .put("instanceType", "g5.12xlarge")
                            .put("gpusPerNode", 4)
                            .put("capacityType", "ON_DEMAND")
                            .put("capacityReservationId", SimulatedCapacity.STACK_ODCR)
                            .put("efa", false);
                    ((ObjectNode) spec.get("training"))
                            .put("procsPerWorker", 4)
                            .put("gpusPerWorker", 4)
                            .put("cpu", "40")
                            .put("memory", "160Gi");
                },
                cloud -> {});

        assertThat(out.report().status()).as(out.report().error() + "").isEqualTo("SUCCEEDED");
        assertThat(out.nodegroup().subnets()).containsExactly(SimulatedNetwork.SUBNET_1B);
        assertThat(out.nodegroup().instanceTypes()).containsExactly("g5.12xlarge");
        assertThat(out.launchTemplateData().has("InstanceType")).isFalse();
    }

    @Test
    void anotherInstanceTypeThanTheBlocksIsRefusedBeforeAnythingIsCreated() {
        Outcome out = run(efaExample, spec -> nodeGroup(spec).put("instanceType", "p5.48xlarge"), cloud -> {});

        assertThat(out.report().status()).isEqualTo("FAILED");
        assertThat(out.report().failedState()).isEqualTo("CreateCluster");
        assertThat(out.report().error()).isEqualTo("CapacityReservationInstanceType");
        assertThat(out.report().cause())
                .contains(
                        "reserves p4d.24xlarge, not p5.48xlarge", "set cluster.nodeGroup.instanceType to p4d.24xlarge");
        assertThat(out.nodegroup()).isNull();
        assertThat(out.report().resources().created()).isEmpty();
    }

    @Test
    void aBlockTooSmallForTheNodesIsRefusedBeforeAnythingIsCreated() {
        Outcome out = run(efaExample, spec -> nodeGroup(spec).put("nodes", 3), cloud -> {});

        assertThat(out.report().failedState()).isEqualTo("CreateCluster");
        assertThat(out.report().error()).isEqualTo("CapacityReservationTooSmall");
        assertThat(out.report().cause()).contains("reserves 2 instances, the node group asks for 3");
        assertThat(out.report().resources().created()).isEmpty();
    }

    @Test
    void aBlockInAZoneWithoutAStackSubnetIsRefusedNamingTheZone() {
        Outcome out = run(
                efaExample,
                spec -> nodeGroup(spec).put("capacityReservationId", "cr-0c0c0c0c0c0c0c0c0"),
                cloud -> cloud.capacity()
                        .add(new SimulatedCapacity.Reservation(
                                "cr-0c0c0c0c0c0c0c0c0",
                                "capacity-block",
                                "p4d.24xlarge",
                                2,
                                "us-east-1c",
                                cloud.clock().instant(),
                                cloud.clock().instant().plus(Duration.ofDays(2)))));

        assertThat(out.report().failedState()).isEqualTo("CreateCluster");
        assertThat(out.report().error()).isEqualTo("NoSubnetInReservationZone");
        assertThat(out.report().cause()).contains("us-east-1c", SimulatedNetwork.SUBNET_1A + " in us-east-1a");
        assertThat(out.report().resources().created()).isEmpty();
    }

    @Test
    void theLookupsAreAllowedByTheStacksRoleAndAskOnlyCloudControlsReadActions() {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunReport report = new LocalRun(cloud, Faults.none(), e -> {})
                    .execute(RunSpecs.normalize(efaExample), "cifar10-p4d-efa");

            assertThat(report.failedState())
                    .as(report.error() + ": " + report.cause())
                    .isNotIn("CreateNodegroup", "CheckNodegroup");
            assertThat(cloud.iam().denials()).isEmpty();
            assertThat(report.calls()).as("the node group was asked for").containsKey("eks:CreateNodegroup");
            assertThat(cloud.iam().entries())
                    .filteredOn(e -> e.action().equals("ec2:DescribeCapacityReservations"))
                    .isNotEmpty()
                    .allSatisfy(e -> {
                        assertThat(e.role()).isEqualTo("ClusterWorkRole");
                        assertThat(e.function()).isIn("CreateCluster", "CreateNodegroup", "CheckNodegroup");
                        assertThat(e.resource()).isEqualTo("*");
                        assertThat(e.statement())
                                .isEqualTo("ClusterWorkRole/trainplane-RunCloudControlPolicy/DescribeNetwork");
                    });
        }
    }
}
