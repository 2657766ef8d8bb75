package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.local.iam.IamRequest;
import io.trainplane.local.sim.CloudControlPermissions.Handler;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.cloudcontrol.model.GetResourceRequest;
import software.amazon.awssdk.services.cloudcontrol.model.ListResourcesRequest;
import software.amazon.awssdk.services.cloudcontrol.model.Operation;

/** Cloud Control asks IAM what the resource type's handlers need, as its schema lists them. */
class CloudControlPermissionsTest {
    @Test
    void everyTypeTheTwinProvisionsHasEachHandlerAndItsCreateActionFirst() {
        for (CloudControlTypes type : CloudControlTypes.values()) {
            assertThat(CloudControlPermissions.HANDLERS.get(type))
                    .as(type.name())
                    .containsOnlyKeys(Handler.values());
            assertThat(CloudControlPermissions.HANDLERS
                            .get(type)
                            .get(Handler.CREATE)
                            .get(0))
                    .as(type.name())
                    .matches("[a-z0-9]+:Create[A-Za-z]+");
        }
    }

    @Test
    void listingLogGroupsAsksForEachGroupsTagsAsTheListHandlerReadsThem() {
        var asked = new CloudControlPermissions()
                .of(
                        "ListResources",
                        ListResourcesRequest.builder()
                                .typeName("AWS::Logs::LogGroup")
                                .build());
        assertThat(asked)
                .extracting(IamRequest::action)
                .containsExactly(
                        "cloudformation:ListResources",
                        "logs:DescribeLogGroups",
                        "logs:ListTagsForResource",
                        "logs:GetDataProtectionPolicy");
        assertThat(asked.get(2).resource()).endsWith(":log-group:*");

        var read = new CloudControlPermissions()
                .of(
                        "GetResource",
                        GetResourceRequest.builder()
                                .typeName("AWS::Logs::LogGroup")
                                .identifier("/aws/eks/tp-a/cluster")
                                .build());
        assertThat(read.get(2).resource()).endsWith(":log-group:/aws/eks/tp-a/cluster");
    }

    @Test
    void aCreateWithTagsAsksTheTaggingActionWithTheCreateActionAndADeleteTheResourcesTags() {
        Map<String, String> tags = Map.of("trainplane:run-id", "r1");
        List<IamRequest> create =
                CloudControlPermissions.handler(CloudControlTypes.LAUNCH_TEMPLATE, Operation.CREATE, null, tags);
        assertThat(create)
                .extracting(IamRequest::action)
                .containsExactly("ec2:CreateLaunchTemplate", "ec2:CreateTags", "ec2:DescribeLaunchTemplates");
        assertThat(create.get(1).context()).containsEntry("ec2:CreateAction", List.of("CreateLaunchTemplate"));
        assertThat(create.get(0).context()).containsEntry("aws:RequestTag/trainplane:run-id", List.of("r1"));
        assertThat(create.get(2).resource()).isEqualTo("*");
        // Without tags there is nothing to tag.
        assertThat(CloudControlPermissions.handler(CloudControlTypes.PLACEMENT_GROUP, Operation.CREATE, null, Map.of()))
                .extracting(IamRequest::action)
                .containsExactly("ec2:CreatePlacementGroup", "ec2:DescribePlacementGroups");

        List<IamRequest> delete = CloudControlPermissions.handler(
                CloudControlTypes.LOG_GROUP, Operation.DELETE, "/aws/eks/tp-a/cluster", tags);
        assertThat(delete)
                .extracting(IamRequest::action)
                .containsExactly("logs:DeleteLogGroup", "logs:DescribeLogGroups");
        assertThat(delete.get(0).context()).containsEntry("aws:ResourceTag/trainplane:run-id", List.of("r1"));
    }
}
