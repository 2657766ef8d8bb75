package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.core.Json;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.cloudcontrol.model.ClientTokenConflictException;
import software.amazon.awssdk.services.cloudcontrol.model.ConcurrentOperationException;
import software.amazon.awssdk.services.cloudcontrol.model.CreateResourceRequest;
import software.amazon.awssdk.services.cloudcontrol.model.HandlerErrorCode;
import software.amazon.awssdk.services.cloudcontrol.model.InvalidRequestException;
import software.amazon.awssdk.services.cloudcontrol.model.Operation;
import software.amazon.awssdk.services.cloudcontrol.model.OperationStatus;
import software.amazon.awssdk.services.cloudcontrol.model.ProgressEvent;
import software.amazon.awssdk.services.cloudcontrol.model.RequestTokenNotFoundException;
import software.amazon.awssdk.services.cloudcontrol.model.ResourceNotFoundException;
import software.amazon.awssdk.services.cloudcontrol.model.TypeNotFoundException;

class SimulatedCloudControlTest {
    static final String LAUNCH_TEMPLATE = "AWS::EC2::LaunchTemplate";
    static final String PLACEMENT_GROUP = "AWS::EC2::PlacementGroup";

    final SimAccount sim = new SimAccount();

    static CreateResourceRequest launchTemplate(String name, String token, String runId) {
        return CreateResourceRequest.builder()
                .typeName(LAUNCH_TEMPLATE)
                .clientToken(token)
                .desiredState(
                        """
                        {"LaunchTemplateName": "%s",
                         "LaunchTemplateData": {"InstanceType": "p4d.24xlarge",
                           "TagSpecifications": [{"ResourceType": "instance", "Tags": [{"Key": "node", "Value": "yes"}]}]},
                         "TagSpecifications": [{"ResourceType": "launch-template",
                           "Tags": [{"Key": "trainplane:run-id", "Value": "%s"}]}]}
                        """
                                .formatted(name, runId))
                .build();
    }

    static CreateResourceRequest placementGroup(String name, String strategy, String runId) {
        return CreateResourceRequest.builder()
                .typeName(PLACEMENT_GROUP)
                .desiredState(
                        """
                        {"GroupName": "%s", "Strategy": "%s", "Tags": [{"Key": "trainplane:run-id", "Value": "%s"}]}
                        """
                                .formatted(name, strategy, runId))
                .build();
    }

    ProgressEvent status(ProgressEvent event) {
        return sim.cloudControl
                .getResourceRequestStatus(r -> r.requestToken(event.requestToken()))
                .progressEvent();
    }

    @Test
    void createIsInProgressForTenSecondsThenSucceedsWithItsIdentifier() {
        ProgressEvent accepted = sim.cloudControl
                .createResource(launchTemplate("tp-run-1", "tok", "run-1"))
                .progressEvent();
        assertThat(accepted.operation()).isEqualTo(Operation.CREATE);
        assertThat(accepted.operationStatus()).isEqualTo(OperationStatus.IN_PROGRESS);
        assertThat(accepted.identifier()).isNull();

        sim.at(Duration.ofSeconds(9));
        assertThat(status(accepted).operationStatus()).isEqualTo(OperationStatus.IN_PROGRESS);
        sim.at(Duration.ofSeconds(10));
        ProgressEvent done = status(accepted);
        assertThat(done.operationStatus()).isEqualTo(OperationStatus.SUCCESS);
        assertThat(done.identifier()).matches("lt-[0-9a-f]{17}");

        var properties = Json.read(sim.cloudControl
                .getResource(r -> r.typeName(LAUNCH_TEMPLATE).identifier(done.identifier()))
                .resourceDescription()
                .properties());
        assertThat(properties.path("LaunchTemplateId").asText()).isEqualTo(done.identifier());
        assertThat(properties.path("LaunchTemplateName").asText()).isEqualTo("tp-run-1");
        assertThat(properties.path("LaunchTemplateData").path("InstanceType").asText())
                .isEqualTo("p4d.24xlarge");
    }

    @Test
    void aResourceIsNotReadableWhileItIsBeingCreated() {
        sim.cloudControl.createResource(placementGroup("tp-pg", "cluster", "run-1"));
        assertThatThrownBy(() -> sim.cloudControl.getResource(
                        r -> r.typeName(PLACEMENT_GROUP).identifier("tp-pg")))
                .isInstanceOf(ResourceNotFoundException.class);
        assertThat(sim.cloudControl
                        .listResources(r -> r.typeName(PLACEMENT_GROUP))
                        .resourceDescriptions())
                .isEmpty();
        sim.advance(SimulatedCloudControl.OPERATION);
        assertThat(sim.cloudControl
                        .listResources(r -> r.typeName(PLACEMENT_GROUP))
                        .resourceDescriptions())
                .singleElement()
                .satisfies(d -> assertThat(d.identifier()).isEqualTo("tp-pg"));
    }

    @Test
    void threeCreatesWithOneClientTokenMakeOneResource() {
        var first = sim.cloudControl
                .createResource(launchTemplate("lt-a", "token-1", "run-1"))
                .progressEvent();
        sim.advance(Duration.ofSeconds(4));
        var second = sim.cloudControl
                .createResource(launchTemplate("lt-a", "token-1", "run-1"))
                .progressEvent();
        sim.advance(Duration.ofSeconds(8));
        var third = sim.cloudControl
                .createResource(launchTemplate("lt-a", "token-1", "run-1"))
                .progressEvent();

        assertThat(second.requestToken()).isEqualTo(first.requestToken());
        assertThat(third.requestToken()).isEqualTo(first.requestToken());
        assertThat(third.operationStatus()).isEqualTo(OperationStatus.SUCCESS);
        assertThat(sim.cloudControl
                        .listResources(r -> r.typeName(LAUNCH_TEMPLATE))
                        .resourceDescriptions())
                .hasSize(1);
        assertThat(sim.count("cloudcontrol:CreateResource")).isEqualTo(3);
    }

    @Test
    void aClientTokenReusedForAnotherRequestConflicts() {
        sim.cloudControl.createResource(launchTemplate("lt-a", "token-1", "run-1"));
        assertThatThrownBy(() -> sim.cloudControl.createResource(launchTemplate("lt-b", "token-1", "run-1")))
                .isInstanceOf(ClientTokenConflictException.class)
                .satisfies(e -> assertThat(((ClientTokenConflictException) e).statusCode())
                        .isEqualTo(400));
    }

    @Test
    void aTakenNameOrAnInvalidModelFailsTheRequestNotTheCall() {
        sim.cloudControl.createResource(launchTemplate("lt-a", "token-1", "run-1"));
        var duplicate = sim.cloudControl
                .createResource(launchTemplate("lt-a", "token-2", "run-1"))
                .progressEvent();
        var badStrategy = sim.cloudControl
                .createResource(placementGroup("pg", "diagonal", "run-1"))
                .progressEvent();
        sim.advance(SimulatedCloudControl.OPERATION);

        assertThat(status(duplicate).operationStatus()).isEqualTo(OperationStatus.FAILED);
        assertThat(status(duplicate).errorCode()).isEqualTo(HandlerErrorCode.ALREADY_EXISTS);
        assertThat(status(badStrategy).errorCode()).isEqualTo(HandlerErrorCode.INVALID_REQUEST);
        assertThat(sim.cloudControl.resources()).hasSize(1);
        assertThatThrownBy(() -> sim.cloudControl.createResource(
                        r -> r.typeName(LAUNCH_TEMPLATE).desiredState("not json")))
                .isInstanceOf(InvalidRequestException.class);
    }

    @Test
    void deleteTakesTenSecondsAndUnknownIdentifiersAreNotFound() {
        sim.cloudControl.createResource(placementGroup("tp-pg", "cluster", "run-1"));
        assertThatThrownBy(() -> sim.cloudControl.deleteResource(
                        r -> r.typeName(PLACEMENT_GROUP).identifier("tp-pg")))
                .isInstanceOf(ConcurrentOperationException.class);
        sim.advance(SimulatedCloudControl.OPERATION);

        var deleting = sim.cloudControl
                .deleteResource(r -> r.typeName(PLACEMENT_GROUP).identifier("tp-pg"))
                .progressEvent();
        assertThat(deleting.operation()).isEqualTo(Operation.DELETE);
        assertThat(deleting.operationStatus()).isEqualTo(OperationStatus.IN_PROGRESS);
        assertThat(sim.cloudControl.runResources()).containsExactly("ec2:placement-group/tp-pg");
        sim.advance(SimulatedCloudControl.OPERATION);
        assertThat(status(deleting).operationStatus()).isEqualTo(OperationStatus.SUCCESS);
        assertThat(sim.cloudControl.runResources()).isEmpty();

        assertThatThrownBy(() -> sim.cloudControl.deleteResource(
                        r -> r.typeName(PLACEMENT_GROUP).identifier("tp-pg")))
                .isInstanceOf(ResourceNotFoundException.class)
                .hasMessageContaining("tp-pg");
        assertThatThrownBy(() -> sim.cloudControl.getResource(
                        r -> r.typeName(LAUNCH_TEMPLATE).identifier("lt-0000")))
                .isInstanceOf(ResourceNotFoundException.class);
        assertThatThrownBy(() -> sim.cloudControl.getResourceRequestStatus(r -> r.requestToken("nope")))
                .isInstanceOf(RequestTokenNotFoundException.class);
        assertThatThrownBy(() -> sim.cloudControl.createResource(
                        r -> r.typeName("AWS::S3::Bucket").desiredState("{}")))
                .isInstanceOf(TypeNotFoundException.class);
    }

    @Test
    void inventoryNamesLaunchTemplatesByIdAndPlacementGroupsByNameWithTheirTags() {
        sim.cloudControl.createResource(launchTemplate("lt-a", "t1", "run-1"));
        sim.cloudControl.createResource(placementGroup("pg-b", "spread", "run-2"));
        sim.cloudControl.createResource(CreateResourceRequest.builder()
                .typeName(PLACEMENT_GROUP)
                .desiredState("{\"GroupName\": \"untagged\", \"Strategy\": \"cluster\"}")
                .build());

        assertThat(sim.cloudControl.resources())
                .extracting(CloudResource::ref)
                .hasSize(3)
                .contains("ec2:placement-group/pg-b", "ec2:placement-group/untagged")
                .anyMatch(ref -> ref.matches("ec2:launch-template/lt-[0-9a-f]{17}"));
        assertThat(sim.cloudControl.runResources("run-1"))
                .singleElement()
                .asString()
                .startsWith("ec2:launch-template/lt-");
        assertThat(sim.cloudControl.runResources("run-2")).containsExactly("ec2:placement-group/pg-b");
        assertThat(sim.cloudControl.runResources()).hasSize(2);
        // Tags inside LaunchTemplateData are for instances, not for the template.
        assertThat(sim.cloudControl.resources())
                .filteredOn(r -> r.ref().startsWith("ec2:launch-template/"))
                .singleElement()
                .satisfies(r -> assertThat(r.tags()).containsOnlyKeys("trainplane:run-id"));
    }
}
