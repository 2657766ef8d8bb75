package io.trainplane.local.sim;

import static io.trainplane.local.sim.SimAccount.cluster;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.cloudcontrol.model.CloudControlException;
import software.amazon.awssdk.services.cloudcontrol.model.CreateResourceRequest;
import software.amazon.awssdk.services.cloudwatchevents.model.CloudWatchEventsException;
import software.amazon.awssdk.services.cloudwatchevents.model.PutEventsRequestEntry;
import software.amazon.awssdk.services.efs.model.EfsException;
import software.amazon.awssdk.services.efs.model.FileSystemAlreadyExistsException;
import software.amazon.awssdk.services.eks.model.ClusterStatus;
import software.amazon.awssdk.services.eks.model.EksException;

class FaultPlanTest {
    final SimAccount sim = new SimAccount();

    @Test
    void aFailedOperationThrowsTheServicesOwnNonRetryableErrorOnEveryCall() {
        sim.faults.fail("eks", "CreateCluster");
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> sim.eks.createCluster(cluster("c1", "t", "run-1")))
                    .isExactlyInstanceOf(EksException.class)
                    .hasMessageContaining("injected")
                    .satisfies(e -> {
                        var error = (AwsServiceException) e;
                        assertThat(error.statusCode()).isEqualTo(400);
                        assertThat(error.awsErrorDetails().errorCode()).isEqualTo(FaultPlan.INJECTED_ERROR_CODE);
                        assertThat(error.isThrottlingException()).isFalse();
                        assertThat(error.retryable()).isFalse();
                    });
        }
        assertThat(sim.count("eks:CreateCluster")).isEqualTo(2);
        // It failed before doing anything, and other operations are untouched.
        assertThat(sim.eks.listClusters(r -> {}).clusters()).isEmpty();
    }

    @Test
    void eachServiceFailsWithItsOwnExceptionType() {
        sim.faults
                .fail("efs:CreateFileSystem")
                .fail("cloudcontrol:CreateResource")
                .fail("events:PutEvents");
        assertThatThrownBy(() -> sim.efs.createFileSystem(r -> r.creationToken("t")))
                .isExactlyInstanceOf(EfsException.class);
        assertThatThrownBy(() -> sim.cloudControl.createResource(
                        r -> r.typeName("AWS::EC2::PlacementGroup").desiredState("{}")))
                .isExactlyInstanceOf(CloudControlException.class);
        assertThatThrownBy(() -> sim.bus.putEvents(r ->
                        r.entries(PutEventsRequestEntry.builder().detail("{}").build())))
                .isExactlyInstanceOf(CloudWatchEventsException.class);
        assertThat(sim.bus.events()).isEmpty();
        assertThat(sim.calls.counts())
                .containsEntry("efs:CreateFileSystem", 1)
                .containsEntry("cloudcontrol:CreateResource", 1)
                .containsEntry("events:PutEvents", 1);
    }

    @Test
    void aThrottledOperationFailsOnceThenSucceeds() {
        sim.faults.throttle("eks", "DescribeCluster");
        sim.eks.createCluster(cluster("c1", "t", "run-1"));
        assertThatThrownBy(() -> sim.eks.describeCluster(r -> r.name("c1")))
                .isExactlyInstanceOf(EksException.class)
                .satisfies(e -> {
                    var error = (AwsServiceException) e;
                    assertThat(error.isThrottlingException()).isTrue();
                    assertThat(error.statusCode()).isEqualTo(400);
                    assertThat(error.awsErrorDetails().errorCode()).isEqualTo("ThrottlingException");
                });
        assertThat(sim.eks.describeCluster(r -> r.name("c1")).cluster().status())
                .isEqualTo(ClusterStatus.CREATING);
        assertThat(sim.eks.describeCluster(r -> r.name("c1")).cluster().name()).isEqualTo("c1");
        assertThat(sim.count("eks:DescribeCluster")).isEqualTo(3);
    }

    @Test
    void aTimeoutAfterAcceptLeavesTheClusterAndTheRetryAdoptsIt() {
        sim.faults.timeoutAfter("eks", "CreateCluster");
        assertThatThrownBy(() -> sim.eks.createCluster(cluster("c1", "token-1", "run-1")))
                .isExactlyInstanceOf(SdkClientException.class)
                .hasMessageContaining("timed out after AWS accepted the request");
        assertThat(sim.eks.listClusters(r -> {}).clusters()).containsExactly("c1");

        sim.advance(Duration.ofMinutes(1));
        var retried = sim.eks.createCluster(cluster("c1", "token-1", "run-1")).cluster();
        assertThat(retried.createdAt()).isEqualTo(SimAccount.START);
        assertThat(sim.eks.listClusters(r -> {}).clusters()).containsExactly("c1");
    }

    @Test
    void aTimeoutAfterAcceptOnEfsAndCloudControlLeavesOneResourceEach() {
        sim.faults.timeoutAfter("efs:CreateFileSystem").timeoutAfter("cloudcontrol:CreateResource");
        assertThatThrownBy(() -> sim.efs.createFileSystem(r -> r.creationToken("token-1")))
                .isInstanceOf(SdkClientException.class);
        String id = sim.efs
                .describeFileSystems(r -> r.creationToken("token-1"))
                .fileSystems()
                .get(0)
                .fileSystemId();
        assertThatThrownBy(() -> sim.efs.createFileSystem(r -> r.creationToken("token-1")))
                .isInstanceOf(FileSystemAlreadyExistsException.class)
                .satisfies(e -> assertThat(((FileSystemAlreadyExistsException) e).fileSystemId())
                        .isEqualTo(id));

        var request = CreateResourceRequest.builder()
                .typeName("AWS::EC2::PlacementGroup")
                .clientToken("ct")
                .desiredState("{\"GroupName\": \"pg\", \"Strategy\": \"cluster\"}")
                .build();
        assertThatThrownBy(() -> sim.cloudControl.createResource(request)).isInstanceOf(SdkClientException.class);
        var retried = sim.cloudControl.createResource(request).progressEvent();
        assertThat(sim.cloudControl
                        .getResourceRequestStatus(r -> r.requestToken(retried.requestToken()))
                        .progressEvent()
                        .typeName())
                .isEqualTo("AWS::EC2::PlacementGroup");
        assertThat(sim.cloudControl.resources()).hasSize(1);
        assertThat(sim.efs.resources()).hasSize(1);
    }

    @Test
    void clearLiftsEveryFaultAndArmedListsThem() {
        sim.faults.fail("eks:CreateCluster").throttle("efs:DescribeFileSystems").timeoutAfter("eks:DeleteCluster");
        assertThat(sim.faults.armed())
                .containsExactly(
                        "fail eks:CreateCluster", "throttle efs:DescribeFileSystems", "timeout eks:DeleteCluster");
        sim.faults.clear();
        assertThat(sim.faults.armed()).isEmpty();
        assertThat(sim.eks.createCluster(cluster("c1", "t", "run-1")).cluster().name())
                .isEqualTo("c1");
    }

    @Test
    void unknownServicesAndOperationsAreRefusedWhenPlanned() {
        assertThatThrownBy(() -> sim.faults.fail("rds", "CreateDBInstance"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("eks, efs, fsx, cloudcontrol, events");
        // EC2 answers only what a run asks of its instance types.
        assertThatThrownBy(() -> sim.faults.fail("ec2", "RunInstances"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("DescribeInstanceTypes");
        assertThatThrownBy(() -> sim.faults.fail("eks:CreateClustr"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("CreateClustr");
        assertThatThrownBy(() -> sim.faults.throttle("CreateCluster")).isInstanceOf(IllegalArgumentException.class);
    }
}
