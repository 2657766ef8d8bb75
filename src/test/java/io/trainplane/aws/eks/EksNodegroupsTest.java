package io.trainplane.aws.eks;

import static io.trainplane.aws.eks.Fixtures.GPU_NODES;
import static io.trainplane.aws.eks.Fixtures.NAMES;
import static io.trainplane.aws.eks.Fixtures.NETWORK;
import static io.trainplane.aws.eks.Fixtures.ROLES;
import static io.trainplane.aws.eks.Fixtures.RUN_ID;
import static io.trainplane.aws.eks.Fixtures.TAGS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.aws.Deletion;
import io.trainplane.aws.ResourceState;
import io.trainplane.aws.RunTags;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.eks.model.CreateNodegroupRequest;
import software.amazon.awssdk.services.eks.model.CreateNodegroupResponse;
import software.amazon.awssdk.services.eks.model.DeleteNodegroupRequest;
import software.amazon.awssdk.services.eks.model.DeleteNodegroupResponse;
import software.amazon.awssdk.services.eks.model.DescribeClusterRequest;
import software.amazon.awssdk.services.eks.model.DescribeClusterResponse;
import software.amazon.awssdk.services.eks.model.DescribeNodegroupRequest;
import software.amazon.awssdk.services.eks.model.DescribeNodegroupResponse;
import software.amazon.awssdk.services.eks.model.Issue;
import software.amazon.awssdk.services.eks.model.ListNodegroupsRequest;
import software.amazon.awssdk.services.eks.model.ListNodegroupsResponse;
import software.amazon.awssdk.services.eks.model.Nodegroup;
import software.amazon.awssdk.services.eks.model.NodegroupHealth;

/** The node group lifecycle on the paths moto does not take: failed node groups, refusals. */
class EksNodegroupsTest {

    static final class OneNodegroup extends StubEks {
        Nodegroup nodegroup;
        Supplier<RuntimeException> onCreate = () -> null;
        Supplier<RuntimeException> onDelete = () -> null;
        boolean listed = true;
        int deletes;

        @Override
        public CreateNodegroupResponse createNodegroup(CreateNodegroupRequest request) {
            RuntimeException e = onCreate.get();
            if (e != null) {
                throw e;
            }
            return CreateNodegroupResponse.builder().build();
        }

        @Override
        public DescribeNodegroupResponse describeNodegroup(DescribeNodegroupRequest request) {
            if (nodegroup == null) {
                throw notFound("No node group found for name: " + request.nodegroupName() + ".");
            }
            return DescribeNodegroupResponse.builder().nodegroup(nodegroup).build();
        }

        @Override
        public DescribeClusterResponse describeCluster(DescribeClusterRequest request) {
            return DescribeClusterResponse.builder()
                    .cluster(c -> c.name(request.name()))
                    .build();
        }

        @Override
        public ListNodegroupsResponse listNodegroups(ListNodegroupsRequest request) {
            return ListNodegroupsResponse.builder()
                    .nodegroups(listed ? List.of(NAMES.nodeGroupName()) : List.of())
                    .build();
        }

        @Override
        public DeleteNodegroupResponse deleteNodegroup(DeleteNodegroupRequest request) {
            deletes++;
            RuntimeException e = onDelete.get();
            if (e != null) {
                throw e;
            }
            return DeleteNodegroupResponse.builder().build();
        }
    }

    final OneNodegroup eks = new OneNodegroup();
    final EksNodegroups nodegroups = new EksNodegroups(eks);
    final String cluster = NAMES.clusterName();
    final String name = NAMES.nodeGroupName();

    static Nodegroup nodegroup(String status, Issue... issues) {
        return Nodegroup.builder()
                .nodegroupName(NAMES.nodeGroupName())
                .status(status)
                .health(NodegroupHealth.builder().issues(issues).build())
                .build();
    }

    @ParameterizedTest
    @CsvSource({
        "ACTIVE, Ready",
        "CREATING, Creating",
        "UPDATING, Creating",
        "DELETING, Deleting",
        "CREATE_FAILED, Failed",
        "DELETE_FAILED, Failed",
        "DEGRADED, Failed"
    })
    void statesMapOntoTheSharedEnum(String status, String state) {
        eks.nodegroup = nodegroup(status);

        assertThat(nodegroups.state(cluster, name).getClass().getSimpleName()).isEqualTo(state);
    }

    @Test
    void createFailedCarriesTheHealthIssuesAndWhatToDo() {
        eks.nodegroup = nodegroup(
                "CREATE_FAILED",
                Issue.builder()
                        .code("InsufficientFreeAddresses")
                        .message(
                                "One or more of the subnets associated with your node group does not have enough available IP addresses.")
                        .resourceIds("subnet-0aa")
                        .build(),
                Issue.builder()
                        .code("AsgInstanceLaunchFailures")
                        .message(
                                "We currently do not have sufficient g5.12xlarge capacity in the Availability Zone you requested")
                        .resourceIds("eks-tp-nodes-1234")
                        .build());

        assertThat(nodegroups.state(cluster, name))
                .isInstanceOfSatisfying(ResourceState.Failed.class, failed -> assertThat(failed.reason())
                        .startsWith("EKS node group tp-cifar10-nightly-001-nodes could not be created: ")
                        .contains("InsufficientFreeAddresses: One or more of the subnets")
                        .contains("(subnet-0aa) - use subnets with more free IP addresses")
                        .contains("AsgInstanceLaunchFailures: We currently do not have sufficient g5.12xlarge capacity")
                        .contains("check the instance type's availability"));
    }

    @Test
    void aLaunchRefusedByItsCapacityReservationSaysWhatTheReservationNeeds() {
        eks.nodegroup = nodegroup(
                "CREATE_FAILED",
                Issue.builder()
                        .code("AsgInstanceLaunchFailures")
                        .message(
                                "Could not launch On-Demand Instances. ReservationCapacityExceeded - The requested reservation does not "
                                        + "have sufficient compatible and available capacity for this request. Launching EC2 instance failed.")
                        .resourceIds("eks-tp-nodes-1234")
                        .build());

        assertThat(nodegroups.state(cluster, name))
                .isInstanceOfSatisfying(ResourceState.Failed.class, failed -> assertThat(failed.reason())
                        .contains("ReservationCapacityExceeded", "(eks-tp-nodes-1234)")
                        .contains("every subnet of the node group must be in the reservation's Availability Zone")
                        .doesNotContain("check the instance type's availability"));
    }

    @Test
    void deleteFailedIsFailed() {
        eks.nodegroup = nodegroup(
                "DELETE_FAILED",
                Issue.builder()
                        .code("Ec2SecurityGroupDeletionFailure")
                        .message("DependencyViolation")
                        .build());

        assertThat(nodegroups.state(cluster, name))
                .isInstanceOfSatisfying(ResourceState.Failed.class, failed -> assertThat(failed.reason())
                        .contains("could not be deleted")
                        .contains("Ec2SecurityGroupDeletionFailure: DependencyViolation"));
    }

    @Test
    void nodeGroupOrClusterNotFoundIsGone() {
        assertThat(nodegroups.state(cluster, name)).isEqualTo(new ResourceState.Gone());
    }

    @Test
    void deleteWhileDeletingIsDeletingAndNotFoundIsGone() {
        eks.nodegroup = nodegroup("DELETING");
        eks.onDelete = () -> StubEks.inUse("Nodegroup is already being deleted");
        assertThat(nodegroups.delete(cluster, name)).isEqualTo(new Deletion.Deleting());

        eks.nodegroup = null;
        eks.onDelete = () -> StubEks.notFound("No node group found for name: " + name + ".");
        assertThat(nodegroups.delete(cluster, name)).isEqualTo(new Deletion.Gone());
    }

    @Test
    void aNodeGroupTheClusterDoesNotListIsGoneWithoutADelete() {
        // Recorded before a create that EKS refused: it has no tags, so DeleteNodegroup would be denied.
        eks.listed = false;

        assertThat(nodegroups.delete(cluster, name)).isEqualTo(new Deletion.Gone());
        assertThat(eks.deletes).isZero();
    }

    @Test
    void deleteDuringAnUpdateIsBlocked() {
        eks.nodegroup = nodegroup("UPDATING");
        eks.onDelete = () -> StubEks.inUse("Nodegroup has an update in progress");

        assertThat(nodegroups.delete(cluster, name))
                .isInstanceOfSatisfying(Deletion.Blocked.class, blocked -> assertThat(blocked.reason())
                        .contains("is UPDATING")
                        .contains("update in progress"));
    }

    @Test
    void nodeGroupQuotaIsTerminal() {
        eks.onCreate = () -> StubEks.limit("Nodegroups per cluster limit exceeded");

        assertThatThrownBy(() -> nodegroups.create(NAMES, TAGS, GPU_NODES, NETWORK, ROLES, "lt-0123"))
                .isInstanceOfSatisfying(
                        TerminalException.class, e -> assertThat(e.reason()).isEqualTo(FailureReason.EksQuotaReached))
                .hasMessageContaining("managed node group quota")
                .hasMessageContaining("us-east-1")
                .hasMessageContaining("delete unused node groups");
    }

    @Test
    void adoptionNeedsTheRunsAndTheStacksTags() {
        eks.onCreate = () -> StubEks.inUse("NodeGroup already exists");
        eks.nodegroup = nodegroup("ACTIVE").toBuilder().tags(TAGS.asMap()).build();
        assertThat(nodegroups.create(NAMES, TAGS, GPU_NODES, NETWORK, ROLES, "lt-0123"))
                .isEqualTo(Creation.ADOPTED);

        eks.nodegroup = nodegroup("ACTIVE");
        assertThatThrownBy(() -> nodegroups.create(NAMES, TAGS, GPU_NODES, NETWORK, ROLES, "lt-0123"))
                .isInstanceOfSatisfying(TerminalException.class, e -> assertThat(e.reason())
                        .isEqualTo(FailureReason.NodegroupNameTaken))
                .hasMessageContaining("neither a trainplane:stack nor a trainplane:run-id tag");

        // The same run id in another stack of the account is someone else's node group.
        eks.nodegroup = nodegroup("ACTIVE").toBuilder()
                .tags(new RunTags("ml-dev", RUN_ID).asMap())
                .build();
        assertThatThrownBy(() -> nodegroups.create(NAMES, TAGS, GPU_NODES, NETWORK, ROLES, "lt-0123"))
                .isInstanceOfSatisfying(TerminalException.class, e -> assertThat(e.reason())
                        .isEqualTo(FailureReason.NodegroupNameTaken))
                .hasMessageContaining("its trainplane:stack tag is ml-dev");
    }
}
