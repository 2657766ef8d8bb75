package io.trainplane.local.sim;

import io.trainplane.local.iam.IamRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds the IAM requests of simulated calls, with the condition keys AWS sets
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html):
 * {@code aws:ResourceTag/*} from the resource's own tags (none when it does not exist),
 * {@code aws:RequestTag/*} and {@code aws:TagKeys} from the tags a request sets.
 */
final class IamRequests {
    static final String ARN = "arn:aws:";
    static final String REGIONAL = AwsService.REGION + ":" + AwsService.ACCOUNT + ":";

    private IamRequests() {}

    /** An action on an existing (or missing: {@code tags} null) resource. */
    static IamRequest on(String action, String resource, Map<String, String> tags) {
        var context = new TreeMap<String, List<String>>();
        if (tags != null) {
            tags.forEach((key, value) -> context.put("aws:ResourceTag/" + key, List.of(value)));
        }
        return new IamRequest(action, resource, context);
    }

    /** An action that sets tags: {@code aws:RequestTag/*} and {@code aws:TagKeys}, with the resource's own tags when it has any. */
    static IamRequest tagging(
            String action, String resource, Map<String, String> resourceTags, Map<String, String> requestTags) {
        IamRequest request = on(action, resource, resourceTags);
        if (requestTags == null || requestTags.isEmpty()) {
            return request;
        }
        var context = new TreeMap<>(request.context());
        requestTags.forEach((key, value) -> context.put("aws:RequestTag/" + key, List.of(value)));
        context.put("aws:TagKeys", List.copyOf(new TreeMap<>(requestTags).keySet()));
        return new IamRequest(action, resource, context);
    }

    /**
     * What a create that sets tags also asks: the service's tag action on the new, still untagged
     * resource (tag on create); nothing when it sets no tags.
     */
    static List<IamRequest> taggingOnCreate(String tagAction, String newResource, Map<String, String> tags) {
        return tags == null || tags.isEmpty() ? List.of() : List.of(tagging(tagAction, newResource, null, tags));
    }

    /** An action that removes tags: {@code aws:TagKeys}. */
    static IamRequest untagging(String action, String resource, Map<String, String> resourceTags, List<String> keys) {
        return on(action, resource, resourceTags).with("aws:TagKeys", List.copyOf(keys));
    }

    /**
     * iam:PassRole, which a service checks when a request hands it a role
     * (https://docs.aws.amazon.com/IAM/latest/UserGuide/id_roles_use_passrole.html).
     */
    static IamRequest passRole(String roleArn, String toService) {
        return IamRequest.of("iam:PassRole", roleArn).with("iam:PassedToService", toService);
    }

    static List<IamRequest> list(IamRequest... requests) {
        return new ArrayList<>(List.of(requests));
    }
}
