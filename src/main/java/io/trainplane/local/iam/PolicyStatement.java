package io.trainplane.local.iam;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * One statement of an identity policy, ready to evaluate.
 *
 * @param id          {@code <RoleLogicalId>/<PolicyName>/<Sid or index>}: what the audit log names
 * @param actions     the Action (or, with {@code notAction}, NotAction) patterns
 * @param resources   the Resource (or, with {@code notResource}, NotResource) patterns
 * @param conditions  the Condition block's tests, all of which must hold
 * @param source      the statement as the policy document writes it
 */
public record PolicyStatement(
        String id,
        Effect effect,
        List<String> actions,
        boolean notAction,
        List<String> resources,
        boolean notResource,
        List<ConditionTest> conditions,
        JsonNode source) {

    public enum Effect {
        Allow,
        Deny
    }

    /**
     * Whether the statement applies to the request: its action, its resource and every condition.
     * "The prefix and the action name are case insensitive"
     * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_action.html);
     * resource ARNs are matched case-sensitively (reference_policies_elements_resource.html), after
     * their policy variables are replaced with the request's values ({@link PolicyVariables}).
     */
    public boolean applies(IamRequest request) {
        boolean action = actions.stream().anyMatch(p -> Wildcards.matches(p, request.action(), true));
        if (action == notAction) {
            return false;
        }
        boolean resource = resources.stream().anyMatch(p -> PolicyVariables.resolve(p, request.context(), true)
                .map(arn -> Wildcards.arnMatches(arn, request.resource()))
                .orElse(false));
        if (resource == notResource) {
            return false;
        }
        return conditions.stream().allMatch(c -> c.holds(request.context()));
    }
}
