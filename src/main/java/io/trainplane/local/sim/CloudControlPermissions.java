package io.trainplane.local.sim;

import static io.trainplane.local.sim.IamRequests.list;
import static io.trainplane.local.sim.IamRequests.on;
import static io.trainplane.local.sim.IamRequests.tagging;

import io.trainplane.local.iam.IamRequest;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.cloudcontrol.model.GetResourceRequest;
import software.amazon.awssdk.services.cloudcontrol.model.ListResourcesRequest;
import software.amazon.awssdk.services.cloudcontrol.model.Operation;

/**
 * Cloud Control's permissions. Its own actions (prefix {@code cloudformation}) have no resource
 * type (https://docs.aws.amazon.com/service-authorization/latest/reference/list_awscloudcontrolapi.html);
 * the resource type's handlers then call the service with the caller's credentials, and need the
 * permissions the type's schema lists under {@code handlers.<operation>.permissions}
 * (https://docs.aws.amazon.com/cloudcontrolapi/latest/userguide/resource-operations.html;
 * {@code aws cloudformation describe-type --type RESOURCE --type-name TYPE} prints the schema; the
 * sources: https://github.com/aws-cloudformation/aws-cloudformation-resource-providers-ec2 and
 * -logs). {@link #HANDLERS} holds those lists for the types the twin provisions; each action is
 * then asked on the resource with the tags IAM sees ({@link #request}). A handler refused on
 * create or delete fails the request with {@code AccessDenied}; on read or list the call itself fails.
 */
final class CloudControlPermissions implements Permissions {
    private static final String EC2 = IamRequests.ARN + "ec2:" + IamRequests.REGIONAL;
    private static final String LOGS = IamRequests.ARN + "logs:" + IamRequests.REGIONAL + "log-group:";

    /** The handlers the twin runs. */
    enum Handler {
        CREATE,
        READ,
        DELETE,
        LIST
    }

    /**
     * Each type's handlers' permissions, in the order the handler calls them; the create action first. A create ends with
     * the read handler's read-back (the resource as Cloud Control returns it: for a log group its
     * tags and data protection policy too).
     */
    static final Map<CloudControlTypes, Map<Handler, List<String>>> HANDLERS = Map.of(
            CloudControlTypes.LAUNCH_TEMPLATE,
            Map.of(
                    Handler.CREATE,
                    List.of("ec2:CreateLaunchTemplate", "ec2:CreateTags", "ec2:DescribeLaunchTemplates"),
                    Handler.READ,
                    List.of("ec2:DescribeLaunchTemplates", "ec2:DescribeLaunchTemplateVersions"),
                    Handler.DELETE,
                    List.of("ec2:DeleteLaunchTemplate", "ec2:DescribeLaunchTemplates"),
                    Handler.LIST,
                    List.of("ec2:DescribeLaunchTemplates", "ec2:DescribeLaunchTemplateVersions")),
            CloudControlTypes.PLACEMENT_GROUP,
            Map.of(
                    Handler.CREATE,
                    List.of("ec2:CreatePlacementGroup", "ec2:CreateTags", "ec2:DescribePlacementGroups"),
                    Handler.READ,
                    List.of("ec2:DescribePlacementGroups"),
                    Handler.DELETE,
                    List.of("ec2:DeletePlacementGroup", "ec2:DescribePlacementGroups"),
                    Handler.LIST,
                    List.of("ec2:DescribePlacementGroups")),
            CloudControlTypes.LOG_GROUP,
            Map.of(
                    Handler.CREATE,
                    List.of(
                            "logs:CreateLogGroup",
                            "logs:PutRetentionPolicy",
                            "logs:TagResource",
                            "logs:DescribeLogGroups",
                            "logs:ListTagsForResource",
                            "logs:GetDataProtectionPolicy"),
                    Handler.READ,
                    List.of("logs:DescribeLogGroups", "logs:ListTagsForResource", "logs:GetDataProtectionPolicy"),
                    Handler.DELETE,
                    List.of("logs:DeleteLogGroup", "logs:DescribeLogGroups"),
                    Handler.LIST,
                    List.of("logs:DescribeLogGroups", "logs:ListTagsForResource", "logs:GetDataProtectionPolicy")));

    @Override
    public List<IamRequest> of(String operation, SdkRequest request) {
        var asked = list(IamRequest.of("cloudformation:" + operation, "*"));
        switch (request) {
            case GetResourceRequest r -> asked.addAll(reads(r.typeName(), Handler.READ, r.identifier()));
            // The list handler reads every resource of the type: its permissions on all of them.
            case ListResourcesRequest r -> asked.addAll(reads(r.typeName(), Handler.LIST, "*"));
            default -> {}
        }
        return asked;
    }

    /** What the type's create or delete handler asks of IAM for this resource ({@code tags}: the request's on create, the resource's on delete). */
    static List<IamRequest> handler(
            CloudControlTypes type, Operation operation, String identifier, Map<String, String> tags) {
        Handler handler = operation == Operation.CREATE ? Handler.CREATE : Handler.DELETE;
        return HANDLERS.get(type).get(handler).stream()
                .map(action -> request(type, action, handler, arn(type, handler, identifier), tags))
                .flatMap(Optional::stream)
                .toList();
    }

    /**
     * One handler permission as IAM is asked it: EC2's and CloudWatch Logs' Describe actions on
     * "*" (no resource-level permissions); the create action with the request's tags
     * (aws:RequestTag); the tagging action only when there are tags, EC2's with
     * {@code ec2:CreateAction} (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/supported-iam-actions-tagging.html);
     * a delete with the resource's tags; anything else on the resource.
     */
    private static Optional<IamRequest> request(
            CloudControlTypes type, String action, Handler handler, String arn, Map<String, String> tags) {
        String name = action.substring(action.indexOf(':') + 1);
        if (name.startsWith("Describe")) {
            return Optional.of(IamRequest.of(action, "*"));
        }
        if (name.equals("CreateTags") || name.equals("TagResource")) {
            if (tags.isEmpty()) {
                return Optional.empty();
            }
            var tagging = tagging(action, arn, null, tags);
            String create = HANDLERS.get(type).get(Handler.CREATE).get(0);
            return Optional.of(
                    action.startsWith("ec2:")
                            ? tagging.with("ec2:CreateAction", create.substring(create.indexOf(':') + 1))
                            : tagging);
        }
        if (handler == Handler.CREATE && name.startsWith("Create")) {
            return Optional.of(tagging(action, arn, null, tags));
        }
        if (handler == Handler.DELETE && name.startsWith("Delete")) {
            return Optional.of(on(action, arn, tags));
        }
        return Optional.of(IamRequest.of(action, arn));
    }

    /** The resource's ARN; on create, before the service gave the id, a stand-in. */
    private static String arn(CloudControlTypes type, Handler handler, String identifier) {
        boolean create = handler == Handler.CREATE;
        return switch (type) {
            case LAUNCH_TEMPLATE ->
                EC2 + "launch-template/" + (create || identifier == null ? "lt-00000000000000000" : identifier);
            case PLACEMENT_GROUP ->
                EC2 + "placement-group/" + (identifier != null ? identifier : "pg-00000000000000000");
            case LOG_GROUP -> LOGS + (identifier != null ? identifier : "LogGroup-000000000000");
        };
    }

    /**
     * The read (or list) handler's permissions, for the types the twin provisions and those it only
     * reads; {@code identifier} the resource read, "*" for a list.
     */
    private static List<IamRequest> reads(String typeName, Handler handler, String identifier) {
        CloudControlReadTypes existing = CloudControlReadTypes.byName(typeName);
        if (existing != null) {
            return existing.readPermissions();
        }
        CloudControlTypes type = CloudControlTypes.byName(typeName);
        if (type == null) {
            return List.of(); // the call fails as TypeNotFound
        }
        String arn = arn(type, handler, identifier == null ? "*" : identifier);
        return HANDLERS.get(type).get(handler).stream()
                .map(action -> request(type, action, handler, arn, Map.of()))
                .flatMap(Optional::stream)
                .toList();
    }
}
