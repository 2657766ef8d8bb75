package io.trainplane.local.iam;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** An AWS::IAM::Role resource to a {@link Role}: its inline policies, then its managed policies. */
final class StackRoles {
    private StackRoles() {}

    static Role role(String id, JsonNode resource, Intrinsics intrinsics) {
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
            policies.add(RolePolicy.managed(
                    id, policyArn.asText(), ShippedData.ManagedPolicies.document(policyArn.asText())));
        }
        return new Role(id, intrinsics.name(id), arn, policies);
    }
}
