package io.trainplane.aws.eks;

import static io.trainplane.aws.eks.Fixtures.CLUSTER;
import static io.trainplane.aws.eks.Fixtures.NAMES;
import static io.trainplane.aws.eks.Fixtures.NETWORK;
import static io.trainplane.aws.eks.Fixtures.ROLES;
import static io.trainplane.aws.eks.Fixtures.TAGS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.aws.Deletion;
import io.trainplane.aws.ResourceState;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.core.TransientException;
import io.trainplane.workflow.Failures;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.eks.model.Cluster;
import software.amazon.awssdk.services.eks.model.ClusterHealth;
import software.amazon.awssdk.services.eks.model.ClusterIssue;
import software.amazon.awssdk.services.eks.model.CreateClusterRequest;
import software.amazon.awssdk.services.eks.model.CreateClusterResponse;
import software.amazon.awssdk.services.eks.model.DeleteClusterRequest;
import software.amazon.awssdk.services.eks.model.DeleteClusterResponse;
import software.amazon.awssdk.services.eks.model.DescribeClusterRequest;
import software.amazon.awssdk.services.eks.model.DescribeClusterResponse;
import software.amazon.awssdk.services.eks.model.ListNodegroupsRequest;
import software.amazon.awssdk.services.eks.model.ListNodegroupsResponse;
import software.amazon.awssdk.services.eks.model.ThrottlingException;
import software.amazon.awssdk.services.eks.model.UnsupportedAvailabilityZoneException;

/** The cluster lifecycle on the paths moto does not take: FAILED clusters, refusals, races. */
class EksClustersTest {

    /** EKS with one cluster (or none), whose create and delete do what the test says. */
    static final class OneCluster extends StubEks {
        Cluster cluster;
        Supplier<RuntimeException> onCreate = () -> null;
        Supplier<RuntimeException> onDelete = () -> null;
        List<String> nodegroups = List.of();

        @Override
        public CreateClusterResponse createCluster(CreateClusterRequest request) {
            RuntimeException e = onCreate.get();
            if (e != null) {
                throw e;
            }
            return CreateClusterResponse.builder().build();
        }

        @Override
        public DescribeClusterResponse describeCluster(DescribeClusterRequest request) {
            if (cluster == null) {
                throw notFound("No cluster found for name: " + request.name() + ".");
            }
            return DescribeClusterResponse.builder().cluster(cluster).build();
        }

        @Override
        public DeleteClusterResponse deleteCluster(DeleteClusterRequest request) {
            RuntimeException e = onDelete.get();
            if (e != null) {
                throw e;
            }
            return DeleteClusterResponse.builder().build();
        }

        @Override
        public ListNodegroupsResponse listNodegroups(ListNodegroupsRequest request) {
            return ListNodegroupsResponse.builder().nodegroups(nodegroups).build();
        }
    }

    final OneCluster eks = new OneCluster();
    final EksClusters clusters = new EksClusters(eks);

    static Cluster cluster(String status, Map<String, String> tags) {
        return Cluster.builder()
                .name(NAMES.clusterName())
                .status(status)
                .tags(tags)
                .build();
    }

    @ParameterizedTest
    @CsvSource({
        "ACTIVE, Ready",
        "CREATING, Creating",
        "PENDING, Creating",
        "UPDATING, Creating",
        "DELETING, Deleting",
        "FAILED, Failed",
        "SOMETHING_NEW, Creating"
    })
    void statesMapOntoTheSharedEnum(String status, String state) {
        eks.cluster = cluster(status, Map.of());

        assertThat(clusters.state(NAMES.clusterName()).getClass().getSimpleName())
                .isEqualTo(state);
    }

    @Test
    void unknownClusterIsGone() {
        assertThat(clusters.state("nope")).isEqualTo(new ResourceState.Gone());
    }

    @Test
    void failedClusterSaysWhyAndWhatToDo() {
        eks.cluster = cluster("FAILED", Map.of()).toBuilder()
                .health(ClusterHealth.builder()
                        .issues(
                                ClusterIssue.builder()
                                        .code("Ec2SubnetNotFound")
                                        .message("The subnet ID 'subnet-0aa' does not exist")
                                        .resourceIds("subnet-0aa")
                                        .build(),
                                ClusterIssue.builder()
                                        .code("IamRoleNotFound")
                                        .message("Role not found")
                                        .build())
                        .build())
                .build();

        ResourceState state = clusters.state(NAMES.clusterName());

        assertThat(state).isInstanceOfSatisfying(ResourceState.Failed.class, failed -> assertThat(failed.reason())
                .contains("EKS cluster tp-cifar10-nightly-001-eks failed")
                .contains("Ec2SubnetNotFound: The subnet ID 'subnet-0aa' does not exist (subnet-0aa)")
                .contains("update its subnet parameters")
                .contains("IamRoleNotFound: Role not found"));
    }

    @Test
    void failedClusterWithoutIssuesPointsToTheConsole() {
        eks.cluster = cluster("FAILED", Map.of());

        assertThat(clusters.state(NAMES.clusterName()))
                .isInstanceOfSatisfying(ResourceState.Failed.class, failed -> assertThat(failed.reason())
                        .contains("no health issue")
                        .contains("EKS console"));
    }

    @Test
    void deleteWhileNodeGroupsExistIsBlockedAndNamesThem() {
        eks.cluster = cluster("ACTIVE", Map.of());
        eks.nodegroups = List.of("tp-cifar10-nightly-001-nodes");
        eks.onDelete = () -> StubEks.inUse("Cluster has nodegroups attached");

        assertThat(clusters.delete(NAMES.clusterName()))
                .isInstanceOfSatisfying(Deletion.Blocked.class, blocked -> assertThat(blocked.reason())
                        .contains("[tp-cifar10-nightly-001-nodes]")
                        .contains("delete them first")
                        .contains("Cluster has nodegroups attached"));
    }

    @Test
    void deleteOfAClusterAlreadyDeletingIsDeleting() {
        eks.cluster = cluster("DELETING", Map.of());
        eks.onDelete = () -> StubEks.inUse("Cluster is already being deleted");

        assertThat(clusters.delete(NAMES.clusterName())).isEqualTo(new Deletion.Deleting());
    }

    @Test
    void deleteOfAClusterStillCreatingIsBlockedUntilItIsDone() {
        eks.cluster = cluster("CREATING", Map.of());
        eks.onDelete = () -> StubEks.inUse("Cluster is in CREATING state");

        assertThat(clusters.delete(NAMES.clusterName()))
                .isInstanceOfSatisfying(Deletion.Blocked.class, blocked -> assertThat(blocked.reason())
                        .contains("is CREATING")
                        .contains("try again"));
    }

    @Test
    void deleteOfAnUnknownClusterIsGone() {
        eks.onDelete = () -> StubEks.notFound("No cluster found for name: x.");

        assertThat(clusters.delete("x")).isEqualTo(new Deletion.Gone());
    }

    @Test
    void quotaRefusalIsTerminalAndSaysWhatToDo() {
        eks.onCreate = () -> StubEks.limit("Cluster limit exceeded for account.");

        assertThatThrownBy(() -> clusters.create(NAMES, TAGS, CLUSTER, NETWORK, ROLES))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.EksQuotaReached))
                .hasMessageContaining("EKS cluster quota reached in us-east-1")
                .hasMessageContaining("delete unused clusters or ask for a higher quota")
                .hasMessageContaining("Cluster limit exceeded for account.");
    }

    @Test
    void unsupportedZoneIsTerminalAndListsTheZonesThatWork() {
        eks.onCreate = () -> UnsupportedAvailabilityZoneException.builder()
                .message("Cannot create cluster because us-east-1e does not have sufficient capacity")
                .validZones("us-east-1a", "us-east-1b")
                .statusCode(400)
                .build();

        assertThatThrownBy(() -> clusters.create(NAMES, TAGS, CLUSTER, NETWORK, ROLES))
                .isInstanceOfSatisfying(TerminalException.class, e -> assertThat(e.reason())
                        .isEqualTo(FailureReason.UnsupportedAvailabilityZone))
                .hasMessageContaining("use subnets in us-east-1a, us-east-1b");
    }

    @Test
    void invalidParameterIsTerminal() {
        eks.onCreate = () -> StubEks.invalid("unsupported Kubernetes version 1.12");

        assertThatThrownBy(() -> clusters.create(NAMES, TAGS, CLUSTER, NETWORK, ROLES))
                .isInstanceOfSatisfying(TerminalException.class, e -> assertThat(e.reason())
                        .isEqualTo(FailureReason.EksInvalidParameter))
                .hasMessageContaining("unsupported Kubernetes version 1.12")
                .hasMessageContaining("check the run spec");
    }

    @Test
    void throttlingServerErrorsAndNetworkErrorsPropagateForTheStepWrapperToRetry() {
        RuntimeException throttled = ThrottlingException.builder()
                .message("Rate exceeded")
                .statusCode(429)
                .build();
        RuntimeException server = StubEks.status(503, "Service Unavailable");
        RuntimeException network = SdkClientException.create("Connection reset");
        for (RuntimeException failure : List.of(throttled, server, network)) {
            eks.onCreate = () -> failure;

            assertThatThrownBy(() -> clusters.create(NAMES, TAGS, CLUSTER, NETWORK, ROLES))
                    .isSameAs(failure);
            assertThat(Failures.classify(failure))
                    .isInstanceOf(TransientException.class)
                    .hasCause(failure);
        }
    }

    @Test
    void inUseButGoneMeanwhileIsTransient() {
        eks.onCreate = () -> StubEks.inUse("Cluster already exists with name: " + NAMES.clusterName());

        assertThatThrownBy(() -> clusters.create(NAMES, TAGS, CLUSTER, NETWORK, ROLES))
                .isInstanceOf(TransientException.class);
    }

    @Test
    void describeGivesWhatLaterStepsNeed() {
        eks.cluster = cluster("ACTIVE", Map.of()).toBuilder()
                .endpoint("https://ABC.gr7.us-east-1.eks.amazonaws.com")
                .certificateAuthority(ca -> ca.data("LS0tLS1CRUdJTg=="))
                .resourcesVpcConfig(vpc -> vpc.clusterSecurityGroupId("sg-0eks").vpcId("vpc-0123"))
                .build();

        assertThat(clusters.describe(NAMES.clusterName()))
                .isEqualTo(new ClusterEndpoint(
                        NAMES.clusterName(),
                        "https://ABC.gr7.us-east-1.eks.amazonaws.com",
                        "LS0tLS1CRUdJTg==",
                        "sg-0eks",
                        "vpc-0123"));
    }
}
