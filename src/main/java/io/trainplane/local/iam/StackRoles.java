package io.trainplane.local.iam;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An AWS::IAM::Role resource to a {@link Role}: its inline policies, then its managed policies (AWS's,
 * from the shipped data, or the stack's own AWS::IAM::ManagedPolicy resources); held to IAM's quotas
 * ({@link IamQuotas}) as CloudFormation's create would be.
 */
final class StackRoles {
    private StackRoles() {}

    /**
     * An AWS::IAM::ManagedPolicy resource's document, resolved and held to IAM's size quota. Attached
     * through a role's ManagedPolicyArns only: its own Roles, Groups and Users are not simulated.
     */
    static JsonNode managedPolicy(String id, JsonNode resource, Intrinsics intrinsics) {
        String where = "Resources." + id + ".Properties";
        JsonNode properties = resource.path("Properties");
        for (String attachment : List.of("Roles", "Groups", "Users")) {
            if (properties.has(attachment)) {
                throw new TemplateException(where + "." + attachment + ": attach the policy through the role's"
                        + " ManagedPolicyArns instead (the simulation reads a role's policies from the role)");
            }
        }
        JsonNode document = intrinsics.resolve(properties.path("PolicyDocument"), where + ".PolicyDocument");
        int characters = IamQuotas.characters(document);
        if (characters > IamQuotas.MANAGED_POLICY) {
            throw new TemplateException(where + ".PolicyDocument: " + characters + " characters (white space not"
                    + " counted), over IAM's " + IamQuotas.MANAGED_POLICY + " for a managed policy; CloudFormation's"
                    + " create fails with LimitExceeded: Cannot exceed quota for PolicySize: "
                    + IamQuotas.MANAGED_POLICY
                    + " (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_iam-quotas.html)");
        }
        return document;
    }

    static Role role(String id, JsonNode resource, Intrinsics intrinsics, Map<String, JsonNode> customerPolicies) {
        String where = "Resources." + id + ".Properties";
        JsonNode properties = resource.path("Properties");
        if (properties.has("PermissionsBoundary")) {
            throw new TemplateException(where + ".PermissionsBoundary: permissions boundaries are not simulated");
        }
        JsonNode arnCall = Json.NODES
                .objectNode()
                .set("Fn::GetAtt", Json.NODES.arrayNode().add(id).add("Arn"));
        String arn = intrinsics.text(arnCall, where);
        List<RolePolicy> policies = new ArrayList<>();
        Set<String> names = new HashSet<>();
        JsonNode inline = intrinsics.resolve(properties.path("Policies"), where + ".Policies");
        for (JsonNode policy : inline.isArray() ? inline : List.<JsonNode>of()) {
            String name = policy.path("PolicyName").asText("");
            if (name.isEmpty() || !policy.has("PolicyDocument")) {
                throw new TemplateException(where + ".Policies: each policy needs a PolicyName and a PolicyDocument");
            }
            if (!names.add(name)) {
                throw new TemplateException(where + ".Policies: two policies are named " + name);
            }
            policies.add(RolePolicy.inline(id, name, policy.get("PolicyDocument")));
        }
        JsonNode managed = intrinsics.resolve(properties.path("ManagedPolicyArns"), where + ".ManagedPolicyArns");
        for (JsonNode policyArn : managed.isArray() ? managed : List.<JsonNode>of()) {
            String managedArn = policyArn.asText();
            JsonNode document = customerPolicies.containsKey(managedArn)
                    ? customerPolicies.get(managedArn)
                    : ShippedData.ManagedPolicies.document(managedArn);
            policies.add(RolePolicy.managed(id, managedArn, document));
        }
        Role role = new Role(id, intrinsics.name(id), arn, policies);
        IamQuotas.check(
                role,
                intrinsics.resolve(properties.path("AssumeRolePolicyDocument"), where + ".AssumeRolePolicyDocument"),
                "Resources." + id);
        return role;
    }
}
