package io.trainplane.local.sim;

import static io.trainplane.local.sim.IamRequests.list;
import static io.trainplane.local.sim.IamRequests.on;
import static io.trainplane.local.sim.IamRequests.tagging;

import io.trainplane.local.iam.IamRequest;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.cloudcontrol.model.GetResourceRequest;
import software.amazon.awssdk.services.cloudcontrol.model.ListResourcesRequest;
import software.amazon.awssdk.services.cloudcontrol.model.Operation;

/**
 * Cloud Control's permissions. Its own actions (prefix {@code cloudformation}) have no resource
 * type (https://docs.aws.amazon.com/service-authorization/latest/reference/list_awscloudcontrolapi.html);
 * the resource type's handlers then call the service with the caller's credentials, and need the
 * permissions the type's schema lists under {@code handlers.<operation>.permissions}
 * (https://docs.aws.amazon.com/cloudcontrolapi/latest/userguide/resource-operations.html; the EC2
 * schemas: https://github.com/aws-cloudformation/aws-cloudformation-resource-providers-ec2). A
 * handler refused on create or delete fails the request with {@code AccessDenied}; on read or list
 * the call itself fails.
 */
final class CloudControlPermissions implements Permissions {
    private static final String EC2 = IamRequests.ARN + "ec2:" + IamRequests.REGIONAL;
    private static final String LOGS = IamRequests.ARN + "logs:" + IamRequests.REGIONAL + "log-group:";

    @Override
    public List<IamRequest> of(String operation, SdkRequest request) {
        var asked = list(IamRequest.of("cloudformation:" + operation, "*"));
        switch (request) {
            case GetResourceRequest r -> asked.addAll(reads(r.typeName(), r.identifier()));
            // The list handler reads every resource of the type: its permissions on all of them.
            case ListResourcesRequest r -> asked.addAll(reads(r.typeName(), "*"));
            default -> {}
        }
        return asked;
    }

    /** What the type's create or delete handler asks of IAM for this resource ({@code tags}: the request's on create, the resource's on delete). */
    static List<IamRequest> handler(
            CloudControlTypes type, Operation operation, String identifier, Map<String, String> tags) {
        boolean create = operation == Operation.CREATE;
        return switch (type) {
            case LAUNCH_TEMPLATE -> {
                // The id is EC2's to give on create: a stand-in names the new launch template.
                String arn = EC2 + "launch-template/" + (create ? "lt-00000000000000000" : identifier);
                var asked = create
                        ? list(tagging("ec2:CreateLaunchTemplate", arn, null, tags))
                        : list(on("ec2:DeleteLaunchTemplate", arn, tags));
                if (create && !tags.isEmpty()) {
                    asked.add(tagging("ec2:CreateTags", arn, null, tags)
                            .with("ec2:CreateAction", "CreateLaunchTemplate"));
                }
                asked.add(IamRequest.of("ec2:DescribeLaunchTemplates", "*"));
                yield asked;
            }
            case LOG_GROUP -> {
                // The AWS::Logs::LogGroup schema's handlers (aws-cloudformation-resource-providers-logs):
                // a create ends with the read handler's read-back, tags and data protection policy included.
                String arn = LOGS + (identifier != null ? identifier : "LogGroup-000000000000");
                var asked = create
                        ? list(
                                tagging("logs:CreateLogGroup", arn, null, tags),
                                IamRequest.of("logs:PutRetentionPolicy", arn))
                        : list(on("logs:DeleteLogGroup", arn, tags));
                if (create && !tags.isEmpty()) {
                    asked.add(tagging("logs:TagResource", arn, null, tags));
                }
                asked.add(IamRequest.of("logs:DescribeLogGroups", "*"));
                if (create) {
                    asked.addAll(logGroupReads(arn));
                }
                yield asked;
            }
            case PLACEMENT_GROUP -> {
                String arn = EC2 + "placement-group/" + (identifier != null ? identifier : "pg-00000000000000000");
                var asked = create
                        ? list(tagging("ec2:CreatePlacementGroup", arn, null, tags))
                        : list(on("ec2:DeletePlacementGroup", arn, tags));
                if (create && !tags.isEmpty()) {
                    asked.add(tagging("ec2:CreateTags", arn, null, tags)
                            .with("ec2:CreateAction", "CreatePlacementGroup"));
                }
                asked.add(IamRequest.of("ec2:DescribePlacementGroups", "*"));
                yield asked;
            }
        };
    }

    /**
     * The read (or list) handler's permissions, for the types the twin provisions and those it only
     * reads; {@code identifier} the resource read, "*" for a list.
     */
    private static List<IamRequest> reads(String typeName, String identifier) {
        CloudControlReadTypes existing = CloudControlReadTypes.byName(typeName);
        return existing != null
                ? existing.readPermissions()
                : reads(CloudControlTypes.byName(typeName), identifier == null ? "*" : identifier);
    }

    /**
     * The AWS::Logs::LogGroup read and list handlers' calls beyond DescribeLogGroups: the group's tags
     * (logs:ListTagsForResource) and its data protection policy, each on the log group.
     */
    private static List<IamRequest> logGroupReads(String arn) {
        return List.of(
                IamRequest.of("logs:ListTagsForResource", arn), IamRequest.of("logs:GetDataProtectionPolicy", arn));
    }

    private static List<IamRequest> reads(CloudControlTypes type, String identifier) {
        if (type == null) {
            return List.of(); // the call fails as TypeNotFound
        }
        return switch (type) {
            case LAUNCH_TEMPLATE ->
                List.of(
                        IamRequest.of("ec2:DescribeLaunchTemplates", "*"),
                        IamRequest.of("ec2:DescribeLaunchTemplateVersions", "*"));
            case PLACEMENT_GROUP -> List.of(IamRequest.of("ec2:DescribePlacementGroups", "*"));
            case LOG_GROUP -> {
                var asked = list(IamRequest.of("logs:DescribeLogGroups", "*"));
                asked.addAll(logGroupReads(LOGS + identifier));
                yield asked;
            }
        };
    }
}
