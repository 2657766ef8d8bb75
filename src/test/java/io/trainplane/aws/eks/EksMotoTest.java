package io.trainplane.aws.eks;

import static io.trainplane.aws.eks.Fixtures.CLUSTER;
import static io.trainplane.aws.eks.Fixtures.CPU_NODES;
import static io.trainplane.aws.eks.Fixtures.GPU_NODES;
import static io.trainplane.aws.eks.Fixtures.NAMES;
import static io.trainplane.aws.eks.Fixtures.NETWORK;
import static io.trainplane.aws.eks.Fixtures.TAGS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.aws.ClusterRoles;
import io.trainplane.aws.Deletion;
import io.trainplane.aws.MotoServer;
import io.trainplane.aws.ResourceState;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.spec.Names;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.eks.model.AMITypes;
import software.amazon.awssdk.services.eks.model.CapacityTypes;
import software.amazon.awssdk.services.eks.model.Cluster;
import software.amazon.awssdk.services.eks.model.LogType;
import software.amazon.awssdk.services.eks.model.Nodegroup;
import software.amazon.awssdk.services.eks.model.TaintEffect;

/**
 * The cluster and node group lifecycles against moto_server, a real AWS-compatible peer, over
 * HTTP with the real SDK client. What moto 5 does, as these tests found it:
 * <ul>
 *   <li>clusters and node groups are ACTIVE at once, and deleting removes them at once (no
 *       CREATING or DELETING phase, no health issues);
 *   <li>a second CreateCluster/CreateNodegroup of the same name is a ResourceInUseException whatever
 *       the clientRequestToken (moto stores the token but does not replay on it), so every repeat
 *       goes through the adopt path;
 *   <li>DeleteCluster with node groups attached is a ResourceInUseException ("Cluster has
 *       nodegroups attached"), as on EKS;
 *   <li>accessConfig is accepted and dropped (DescribeCluster has no accessConfig), and
 *       resourcesVpcConfig comes back as sent: no clusterSecurityGroupId, no vpcId;
 *   <li>TagResource/ListTagsForResource know clusters only; node group tags are on
 *       DescribeNodegroup;
 *   <li>role ARNs are checked for their format (InvalidParameterException); subnets and security
 *       groups are not checked at all.
 * </ul>
 */
class EksMotoTest {
    @RegisterExtension
    static final MotoServer MOTO = new MotoServer();

    static final ClusterRoles ROLES = new ClusterRoles(
            MotoServer.roleArn("trainplane-cluster"),
            MotoServer.roleArn("trainplane-nodes"),
            MotoServer.roleArn("trainplane-efs-csi"));

    EksClient eks;
    EksClusters clusters;
    EksNodegroups nodegroups;

    @BeforeEach
    void fresh() {
        MOTO.reset();
        eks = MOTO.eks();
        clusters = new EksClusters(eks);
        nodegroups = new EksNodegroups(eks);
    }

    @AfterEach
    void close() {
        if (eks != null) {
            eks.close();
        }
    }

    @Test
    void createThreeTimesMakesOneClusterThatIsReadyAndTagged() {
        assertThat(clusters.create(NAMES, TAGS, CLUSTER, NETWORK, ROLES)).isEqualTo(Creation.CREATED);
        assertThat(clusters.create(NAMES, TAGS, CLUSTER, NETWORK, ROLES)).isEqualTo(Creation.ADOPTED);
        assertThat(clusters.create(NAMES, TAGS, CLUSTER, NETWORK, ROLES)).isEqualTo(Creation.ADOPTED);

        assertThat(eks.listClusters(r -> {}).clusters()).containsExactly(NAMES.clusterName());
        assertThat(clusters.state(NAMES.clusterName())).isEqualTo(new ResourceState.Ready());

        Cluster cluster = eks.describeCluster(r -> r.name(NAMES.clusterName())).cluster();
        assertThat(cluster.version()).isEqualTo(Fixtures.CLUSTER.kubernetesVersion());
        assertThat(cluster.roleArn()).isEqualTo(ROLES.clusterRoleArn());
        assertThat(cluster.resourcesVpcConfig().subnetIds()).containsExactlyElementsOf(NETWORK.subnetIds());
        assertThat(cluster.resourcesVpcConfig().securityGroupIds())
                .containsExactlyElementsOf(NETWORK.securityGroupIds());
        assertThat(cluster.resourcesVpcConfig().endpointPublicAccess()).isTrue();
        assertThat(cluster.resourcesVpcConfig().endpointPrivateAccess()).isTrue();
        assertThat(cluster.logging().clusterLogging()).singleElement().satisfies(setup -> {
            assertThat(setup.enabled()).isTrue();
            assertThat(setup.types()).containsExactly(LogType.API, LogType.AUDIT, LogType.AUTHENTICATOR);
        });
        assertThat(cluster.clientRequestToken()).isEqualTo(NAMES.clientRequestToken("CreateCluster"));
        // Tags round-trip, on the cluster and through the tagging API.
        assertThat(cluster.tags()).containsExactlyEntriesOf(TAGS.asMap());
        assertThat(eks.listTagsForResource(r -> r.resourceArn(cluster.arn())).tags())
                .containsExactlyEntriesOf(TAGS.asMap());
    }

    @Test
    void describeGivesEndpointAndCertificate() {
        clusters.create(NAMES, TAGS, CLUSTER, NETWORK, ROLES);

        ClusterEndpoint endpoint = clusters.describe(NAMES.clusterName());

        assertThat(endpoint.name()).isEqualTo(NAMES.clusterName());
        assertThat(endpoint.endpoint()).startsWith("https://").contains(".us-east-1.eks.amazonaws.com");
        assertThat(endpoint.certificateAuthorityData()).isNotBlank();
        // moto returns resourcesVpcConfig as sent: EKS's own security group and the VPC id are absent.
        assertThat(endpoint.clusterSecurityGroupId()).isNull();
        assertThat(endpoint.vpcId()).isNull();
    }

    @Test
    void aClusterOfTheSameNameThatIsNotTheRunsIsNeverAdopted() {
        eks.createCluster(r -> r.name(NAMES.clusterName())
                .roleArn(ROLES.clusterRoleArn())
                .resourcesVpcConfig(v -> v.subnetIds("subnet-1"))
                .tags(Map.of(Names.RUN_ID_TAG, "someone-else")));

        assertThatThrownBy(() -> clusters.create(NAMES, TAGS, CLUSTER, NETWORK, ROLES))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.ClusterNameTaken))
                .hasMessageContaining(NAMES.clusterName())
                .hasMessageContaining("its trainplane:run-id tag is someone-else");
    }

    @Test
    void anUntaggedClusterOfTheSameNameIsNeverAdopted() {
        eks.createCluster(r -> r.name(NAMES.clusterName())
                .roleArn(ROLES.clusterRoleArn())
                .resourcesVpcConfig(v -> v.subnetIds("subnet-1")));

        assertThatThrownBy(() -> clusters.create(NAMES, TAGS, CLUSTER, NETWORK, ROLES))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.ClusterNameTaken))
                .hasMessageContaining("it has neither a trainplane:stack nor a trainplane:run-id tag");
    }

    @Test
    void invalidRoleIsTerminal() {
        ClusterRoles bad = new ClusterRoles("not-a-role", ROLES.nodeRoleArn(), ROLES.efsCsiRoleArn());

        assertThatThrownBy(() -> clusters.create(NAMES, TAGS, CLUSTER, NETWORK, bad))
                .isInstanceOfSatisfying(TerminalException.class, e -> assertThat(e.reason())
                        .isEqualTo(FailureReason.EksInvalidParameter))
                .hasMessageContaining("Invalid Role Arn: 'not-a-role'");
    }

    @Test
    void createNodeGroupThreeTimesMakesOneThatIsReadyWithItsLabelsTaintsAndTags() {
        clusters.create(NAMES, TAGS, CLUSTER, NETWORK, ROLES);

        assertThat(nodegroups.create(NAMES, TAGS, GPU_NODES, NETWORK, ROLES, "lt-0123"))
                .isEqualTo(Creation.CREATED);
        assertThat(nodegroups.create(NAMES, TAGS, GPU_NODES, NETWORK, ROLES, "lt-0123"))
                .isEqualTo(Creation.ADOPTED);
        assertThat(nodegroups.create(NAMES, TAGS, GPU_NODES, NETWORK, ROLES, "lt-0123"))
                .isEqualTo(Creation.ADOPTED);

        assertThat(eks.listNodegroups(r -> r.clusterName(NAMES.clusterName())).nodegroups())
                .containsExactly(NAMES.nodeGroupName());
        assertThat(nodegroups.state(NAMES.clusterName(), NAMES.nodeGroupName())).isEqualTo(new ResourceState.Ready());

        Nodegroup nodegroup = eks.describeNodegroup(
                        r -> r.clusterName(NAMES.clusterName()).nodegroupName(NAMES.nodeGroupName()))
                .nodegroup();
        assertThat(nodegroup.nodeRole()).isEqualTo(ROLES.nodeRoleArn());
        assertThat(nodegroup.subnets()).containsExactlyElementsOf(NETWORK.subnetIds());
        assertThat(nodegroup.instanceTypes()).containsExactly("g5.12xlarge");
        assertThat(nodegroup.amiType()).isEqualTo(AMITypes.AL2023_X86_64_NVIDIA);
        assertThat(nodegroup.capacityType()).isEqualTo(CapacityTypes.ON_DEMAND);
        assertThat(nodegroup.scalingConfig().minSize()).isEqualTo(2);
        assertThat(nodegroup.scalingConfig().desiredSize()).isEqualTo(2);
        assertThat(nodegroup.scalingConfig().maxSize()).isEqualTo(2);
        assertThat(nodegroup.labels())
                .containsEntry("trainplane/run-id", Fixtures.RUN_ID)
                .containsEntry("trainplane/gpu", "true");
        assertThat(nodegroup.taints()).singleElement().satisfies(taint -> {
            assertThat(taint.key()).isEqualTo("nvidia.com/gpu");
            assertThat(taint.value()).isEqualTo("present");
            assertThat(taint.effect()).isEqualTo(TaintEffect.NO_SCHEDULE);
        });
        assertThat(nodegroup.tags()).containsExactlyEntriesOf(TAGS.asMap());
    }

    @Test
    void cpuNodeGroupRoundTripsWithoutTaints() {
        clusters.create(NAMES, TAGS, CLUSTER, NETWORK, ROLES);
        nodegroups.create(NAMES, TAGS, CPU_NODES, NETWORK, ROLES, "lt-0123");

        Nodegroup nodegroup = eks.describeNodegroup(
                        r -> r.clusterName(NAMES.clusterName()).nodegroupName(NAMES.nodeGroupName()))
                .nodegroup();
        assertThat(nodegroup.amiType()).isEqualTo(AMITypes.AL2023_X86_64_STANDARD);
        assertThat(nodegroup.capacityType()).isEqualTo(CapacityTypes.SPOT);
        assertThat(nodegroup.taints()).isEmpty();
        assertThat(nodegroup.labels()).doesNotContainKey("trainplane/gpu");
    }

    @Test
    void nodeGroupWithoutItsClusterIsTerminal() {
        assertThatThrownBy(() -> nodegroups.create(NAMES, TAGS, GPU_NODES, NETWORK, ROLES, "lt-0123"))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.ClusterNotFound))
                .hasMessageContaining(NAMES.clusterName());
    }

    @Test
    void teardownInDependencyOrderAndTwice() {
        clusters.create(NAMES, TAGS, CLUSTER, NETWORK, ROLES);
        nodegroups.create(NAMES, TAGS, GPU_NODES, NETWORK, ROLES, "lt-0123");

        // moto, like EKS, refuses to delete a cluster that still has node groups.
        assertThat(clusters.delete(NAMES.clusterName()))
                .isInstanceOfSatisfying(Deletion.Blocked.class, blocked -> assertThat(blocked.reason())
                        .contains("[" + NAMES.nodeGroupName() + "]")
                        .contains("delete them first"));
        assertThat(clusters.state(NAMES.clusterName())).isEqualTo(new ResourceState.Ready());

        assertThat(nodegroups.delete(NAMES.clusterName(), NAMES.nodeGroupName()))
                .isEqualTo(new Deletion.Deleting());
        assertThat(nodegroups.state(NAMES.clusterName(), NAMES.nodeGroupName())).isEqualTo(new ResourceState.Gone());
        assertThat(nodegroups.delete(NAMES.clusterName(), NAMES.nodeGroupName()))
                .isEqualTo(new Deletion.Gone());

        assertThat(clusters.delete(NAMES.clusterName())).isEqualTo(new Deletion.Deleting());
        assertThat(clusters.state(NAMES.clusterName())).isEqualTo(new ResourceState.Gone());
        assertThat(clusters.delete(NAMES.clusterName())).isEqualTo(new Deletion.Gone());
        assertThat(eks.listClusters(r -> {}).clusters()).isEmpty();
        // The node group of a cluster that is gone is gone too.
        assertThat(nodegroups.state(NAMES.clusterName(), NAMES.nodeGroupName())).isEqualTo(new ResourceState.Gone());
        assertThat(nodegroups.delete(NAMES.clusterName(), NAMES.nodeGroupName()))
                .isEqualTo(new Deletion.Gone());
    }

    @Test
    void unknownClusterIsGoneAndCannotBeDescribed() {
        assertThat(clusters.state("tp-nothing-eks")).isEqualTo(new ResourceState.Gone());
        assertThatThrownBy(() -> clusters.describe("tp-nothing-eks"))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.ClusterNotFound));
    }
}
