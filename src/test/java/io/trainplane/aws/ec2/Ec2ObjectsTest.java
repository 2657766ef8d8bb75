package io.trainplane.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.aws.Deletion;
import io.trainplane.aws.ResourceState;
import io.trainplane.aws.RunTags;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.spec.CapacityType;
import io.trainplane.spec.Names;
import io.trainplane.spec.NodeGroupSpec;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.cloudcontrol.model.CreateResourceRequest;
import software.amazon.awssdk.services.cloudcontrol.model.DeleteResourceRequest;
import software.amazon.awssdk.services.cloudcontrol.model.HandlerErrorCode;
import software.amazon.awssdk.services.cloudcontrol.model.Operation;
import software.amazon.awssdk.services.cloudcontrol.model.OperationStatus;
import software.amazon.awssdk.services.cloudcontrol.model.ProgressEvent;

/** Ec2Objects against {@link FakeCloudControl}: the calls it makes and how it reads the answers. */
class Ec2ObjectsTest {
    final FakeCloudControl cloudControl = new FakeCloudControl();
    final Ec2Objects ec2 = new Ec2Objects(cloudControl);
    final Names names = new Names("efa-run");
    final RunTags tags = new RunTags("ml-prod", "efa-run");
    final NodeGroupSpec efaNodes = new NodeGroupSpec("p4d.24xlarge", 2, 8, CapacityType.ON_DEMAND, null, true);

    @Test
    void aPlacementGroupIsRequestedOnceThenReadyWithItsName() {
        ResourceRequest first = ec2.createPlacementGroup(names, tags);
        ResourceRequest again = ec2.createPlacementGroup(names, tags);

        assertThat(first.state()).isInstanceOf(ResourceState.Creating.class);
        assertThat(first.identifier()).isEmpty();
        assertThat(again.requestToken()).isEqualTo(first.requestToken());
        assertThat(ec2.requestState(first.requestToken())).isInstanceOf(ResourceState.Creating.class);

        cloudControl.finish(first.requestToken());

        ResourceRequest done = ec2.request(first.requestToken());
        assertThat(done.state()).isEqualTo(new ResourceState.Ready());
        assertThat(done.typeName()).isEqualTo("AWS::EC2::PlacementGroup");
        assertThat(done.identifier()).isPresent();
        assertThat(cloudControl.resources).hasSize(1);
    }

    @Test
    void theLaunchTemplateGoesIntoThePlacementGroupAndReportsItsId() {
        ResourceRequest group = ec2.createPlacementGroup(names, tags);
        cloudControl.finish(group.requestToken());
        String groupName = ec2.request(group.requestToken()).identifier().orElseThrow();

        ResourceRequest template =
                ec2.createLaunchTemplate(names, tags, efaNodes, Optional.of(groupName), List.of("sg-1"));
        cloudControl.finish(template.requestToken());

        assertThat(ec2.request(template.requestToken()).identifier())
                .hasValueSatisfying(id -> assertThat(id).startsWith("lt-"));
        CreateResourceRequest sent = (CreateResourceRequest) cloudControl.calls.stream()
                .filter(c ->
                        c instanceof CreateResourceRequest r && r.typeName().equals(Ec2DesiredState.LAUNCH_TEMPLATE))
                .findFirst()
                .orElseThrow();
        assertThat(sent.desiredState()).contains("\"GroupName\":\"" + groupName + "\"", "\"InterfaceType\":\"efa\"");
        assertThat(sent.clientToken()).isEqualTo(names.clientRequestToken("launch-template"));
    }

    @Test
    void changedSettingsUnderTheSameTokenAreTerminal() {
        ec2.createLaunchTemplate(names, tags, efaNodes, Optional.empty(), List.of());
        NodeGroupSpec changed = new NodeGroupSpec("p5.48xlarge", 2, 8, CapacityType.ON_DEMAND, null, true);

        assertThatThrownBy(() -> ec2.createLaunchTemplate(names, tags, changed, Optional.empty(), List.of()))
                .isInstanceOfSatisfying(TerminalException.class, e -> assertThat(e.reason())
                        .isEqualTo(FailureReason.ClientTokenConflict));
    }

    @Test
    void aFailedRequestSaysWhyAndWhatToDo() {
        ResourceRequest group = ec2.createPlacementGroup(names, tags);
        cloudControl.fail(group.requestToken(), HandlerErrorCode.SERVICE_LIMIT_EXCEEDED, "You have reached the limit");

        assertThat(ec2.requestState(group.requestToken()))
                .isEqualTo(new ResourceState.Failed(
                        "AWS::EC2::PlacementGroup CREATE failed (ServiceLimitExceeded): You have reached the limit;"
                                + " free or raise the quota (Service Quotas)"));
    }

    @Test
    void theControlPlaneLogGroupIsNamedForTheClusterAndItsTagsReadBack() {
        ResourceRequest logGroup = ec2.createControlPlaneLogGroup(names, tags, 14);
        String name = "/aws/eks/tp-efa-run-eks/cluster";
        assertThat(ec2.tags(ControlPlaneLogGroup.TYPE, name)).isEmpty(); // not yet created

        cloudControl.finish(logGroup.requestToken());

        assertThat(ec2.request(logGroup.requestToken()).identifier()).contains(name);
        assertThat(ec2.tags(ControlPlaneLogGroup.TYPE, name)).contains(tags.asMap());
        CreateResourceRequest sent = (CreateResourceRequest) cloudControl.calls.getFirst();
        assertThat(sent.typeName()).isEqualTo("AWS::Logs::LogGroup");
        assertThat(sent.clientToken()).isEqualTo(names.clientRequestToken("log-group"));
        assertThat(sent.desiredState())
                .isEqualTo(
                        "{\"LogGroupName\":\"" + name + "\",\"RetentionInDays\":14,\"Tags\":"
                                + "[{\"Key\":\"trainplane:run-id\",\"Value\":\"efa-run\"},{\"Key\":\"trainplane:stack\",\"Value\":\"ml-prod\"}]}");
        assertThat(ControlPlaneLogGroup.runCluster(name)).contains("tp-efa-run-eks");
        assertThat(ControlPlaneLogGroup.runCluster("/aws/eks/someone-elses/cluster"))
                .isEmpty();
        assertThat(ControlPlaneLogGroup.runCluster("/aws/lambda/tp-x")).isEmpty();
    }

    @Test
    void anUnknownRequestTokenIsTerminal() {
        assertThatThrownBy(() -> ec2.requestState("req-unknown"))
                .isInstanceOfSatisfying(TerminalException.class, e -> assertThat(e.reason())
                        .isEqualTo(FailureReason.CloudControlRequestNotFound));
    }

    @Test
    void deletingIsCalledAgainUntilGone() {
        ResourceRequest template = ec2.createLaunchTemplate(names, tags, efaNodes, Optional.empty(), List.of());
        cloudControl.finish(template.requestToken());
        String id = ec2.request(template.requestToken()).identifier().orElseThrow();

        assertThat(ec2.delete(Ec2DesiredState.LAUNCH_TEMPLATE, id)).isEqualTo(new Deletion.Deleting());
        assertThat(ec2.delete(Ec2DesiredState.LAUNCH_TEMPLATE, id)).isEqualTo(new Deletion.Deleting()); // still running
        cloudControl.finishAll();
        cloudControl.calls.clear();
        assertThat(ec2.delete(Ec2DesiredState.LAUNCH_TEMPLATE, id)).isEqualTo(new Deletion.Gone());
        assertThat(cloudControl.calls).noneMatch(c -> c instanceof DeleteResourceRequest); // nothing left to delete
    }

    @Test
    void deletesOfOneResourceShareAClientTokenSoCloudControlAnswersWithTheRequestItHas() {
        ResourceRequest group = ec2.createPlacementGroup(names, tags);
        cloudControl.finish(group.requestToken());
        String name = ec2.request(group.requestToken()).identifier().orElseThrow();

        ec2.delete(Ec2DesiredState.PLACEMENT_GROUP, name);
        cloudControl.fail(cloudControl.lastRequestToken(), HandlerErrorCode.RESOURCE_CONFLICT, "group in use");

        assertThat(ec2.delete(Ec2DesiredState.PLACEMENT_GROUP, name)).isEqualTo(new Deletion.Deleting());
        List<String> tokens = cloudControl.calls.stream()
                .filter(c -> c instanceof DeleteResourceRequest)
                .map(c -> ((DeleteResourceRequest) c).clientToken())
                .toList();
        assertThat(tokens).hasSize(2).doesNotContainNull();
        assertThat(tokens.get(1)).isEqualTo(tokens.get(0));
    }

    @Test
    void deletingWhatWasNeverCreatedIsGone() {
        assertThat(ec2.delete(Ec2DesiredState.PLACEMENT_GROUP, "never-made")).isEqualTo(new Deletion.Gone());
    }

    @Test
    void progressEventsMapToStates() {
        assertThat(Ec2Objects.state(event(Operation.CREATE, OperationStatus.PENDING, null)))
                .isEqualTo(new ResourceState.Creating("AWS::EC2::LaunchTemplate PENDING"));
        assertThat(Ec2Objects.state(event(Operation.CREATE, OperationStatus.IN_PROGRESS, null)))
                .isEqualTo(new ResourceState.Creating("AWS::EC2::LaunchTemplate IN_PROGRESS"));
        assertThat(Ec2Objects.state(event(Operation.CREATE, OperationStatus.SUCCESS, null)))
                .isEqualTo(new ResourceState.Ready());
        assertThat(Ec2Objects.state(event(Operation.CREATE, OperationStatus.FAILED, HandlerErrorCode.ALREADY_EXISTS)))
                .isInstanceOfSatisfying(ResourceState.Failed.class, f -> assertThat(f.reason())
                        .contains("AlreadyExists", "another run id"));
        assertThat(Ec2Objects.state(event(Operation.CREATE, OperationStatus.CANCEL_COMPLETE, null)))
                .isEqualTo(new ResourceState.Failed("AWS::EC2::LaunchTemplate CREATE was cancelled"));
        assertThat(Ec2Objects.state(event(Operation.CREATE, OperationStatus.CANCEL_IN_PROGRESS, null)))
                .isInstanceOf(ResourceState.Failed.class);
        assertThat(Ec2Objects.state(event(Operation.DELETE, OperationStatus.IN_PROGRESS, null)))
                .isEqualTo(new ResourceState.Deleting());
        assertThat(Ec2Objects.state(event(Operation.DELETE, OperationStatus.SUCCESS, null)))
                .isEqualTo(new ResourceState.Gone());
        assertThat(Ec2Objects.state(event(Operation.DELETE, OperationStatus.FAILED, HandlerErrorCode.NOT_FOUND)))
                .isEqualTo(new ResourceState.Gone());
    }

    @Test
    void aDeleteRefusedAtOnceIsBlockedWithItsReason() {
        assertThat(Ec2Objects.deletion(
                        event(Operation.DELETE, OperationStatus.FAILED, HandlerErrorCode.RESOURCE_CONFLICT)))
                .isEqualTo(new Deletion.Blocked("AWS::EC2::LaunchTemplate DELETE failed (ResourceConflict): because"));
        assertThat(Ec2Objects.deletion(event(Operation.DELETE, OperationStatus.FAILED, HandlerErrorCode.NOT_FOUND)))
                .isEqualTo(new Deletion.Gone());
        assertThat(Ec2Objects.deletion(event(Operation.DELETE, OperationStatus.PENDING, null)))
                .isEqualTo(new Deletion.Deleting());
    }

    private static ProgressEvent event(Operation operation, OperationStatus status, HandlerErrorCode error) {
        return ProgressEvent.builder()
                .typeName(Ec2DesiredState.LAUNCH_TEMPLATE)
                .operation(operation)
                .operationStatus(status)
                .errorCode(error)
                .statusMessage(error == null ? null : "because")
                .requestToken("req-1")
                .build();
    }
}
