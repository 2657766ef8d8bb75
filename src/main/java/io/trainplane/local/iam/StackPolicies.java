package io.trainplane.local.iam;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The identity policies of every role the stack creates, by the role's logical id: what the
 * simulated account authorizes calls against.
 */
public record StackPolicies(Map<String, Role> roles) {
    public StackPolicies {
        roles = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(roles));
    }

    public Role role(String logicalId) {
        Role role = roles.get(logicalId);
        if (role == null) {
            throw new IllegalArgumentException(
                    "the stack creates no role " + logicalId + " (its roles: " + roles.keySet() + ")");
        }
        return role;
    }

    /** The decision for a request made under the role {@code roleLogicalId}. */
    public Evaluation evaluate(String roleLogicalId, IamRequest request) {
        return role(roleLogicalId).evaluate(request);
    }

    /** The ids of every statement of every role, in order. */
    public List<String> statementIds() {
        return roles.values().stream()
                .flatMap(r -> r.statements().stream())
                .map(PolicyStatement::id)
                .toList();
    }

    /**
     * A copy of these policies where the role {@code roleLogicalId} also has the inline policy
     * {@code name} with {@code document} (its statements {@code ROLE/NAME/SID-or-index}): a
     * role scoped otherwise than template.yaml's, for what-if questions.
     */
    public StackPolicies withInlinePolicy(
            String roleLogicalId, String name, com.fasterxml.jackson.databind.JsonNode document) {
        Role role = role(roleLogicalId);
        List<RolePolicy> policies = new java.util.ArrayList<>(role.policies());
        policies.add(RolePolicy.inline(roleLogicalId, name, document));
        Map<String, Role> copy = new LinkedHashMap<>(roles);
        copy.put(roleLogicalId, new Role(role.logicalId(), role.name(), role.arn(), policies));
        return new StackPolicies(copy);
    }

    /** A copy of these policies without the statement {@code statementId}. */
    public StackPolicies without(String statementId) {
        if (!statementIds().contains(statementId)) {
            throw new IllegalArgumentException("no statement " + statementId + " in the stack's policies");
        }
        Map<String, Role> copy = new LinkedHashMap<>();
        roles.forEach((id, role) -> copy.put(id, role.without(statementId)));
        return new StackPolicies(copy);
    }
}
