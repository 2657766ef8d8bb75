package io.trainplane.local.iam;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * One identity policy of a role: an inline policy ({@code run-record}, or SAM's
 * {@code TrainingPipelineRolePolicy0}), an attached AWS managed policy, or one of the stack's own
 * customer managed policies.
 *
 * @param name       the PolicyName, or the managed policy's name ({@code AWSLambdaBasicExecutionRole})
 * @param managedArn the managed policy's ARN; null for an inline policy
 * @param document   the policy document as IAM stores it; null for a managed policy whose document
 *                   the simulation does not know
 */
public record RolePolicy(String name, String managedArn, JsonNode document, List<PolicyStatement> statements) {

    static RolePolicy inline(String role, String name, JsonNode document) {
        return new RolePolicy(name, null, document, PolicyDocuments.statements(role + "/" + name, document));
    }

    /** An AWS managed policy; {@code document} null when the simulation does not ship it. */
    static RolePolicy managed(String role, String arn, JsonNode document) {
        String name = arn.substring(arn.lastIndexOf('/') + 1);
        List<PolicyStatement> statements =
                document == null ? List.of() : PolicyDocuments.statements(role + "/" + name, document);
        return new RolePolicy(name, arn, document, statements);
    }

    public boolean managed() {
        return managedArn != null;
    }

    /** A managed policy of the account's own (the stack's AWS::IAM::ManagedPolicy), not one of AWS's. */
    public boolean customerManaged() {
        return managed() && !managedArn.contains(":iam::aws:policy/");
    }

    public boolean known() {
        return document != null;
    }

    /** This policy without the statement {@code id}; its document loses that statement too. */
    RolePolicy without(String id) {
        if (statements.stream().noneMatch(s -> s.id().equals(id))) {
            return this;
        }
        List<PolicyStatement> kept =
                statements.stream().filter(s -> !s.id().equals(id)).toList();
        ObjectNode copy = document.deepCopy();
        ArrayNode remaining = copy.putArray("Statement");
        kept.forEach(s -> remaining.add(s.source()));
        return new RolePolicy(name, managedArn, copy, kept);
    }
}
