package io.trainplane.local.iam;

import java.util.List;

/**
 * An IAM role of the stack with its identity policies, resolved for the local account.
 *
 * @param logicalId the role's logical id in template.yaml, or the one SAM gives the role it
 *                  generates ({@code TrainingPipelineRole})
 * @param name      its physical name ({@code trainplane-ClusterWorkRole})
 */
public record Role(String logicalId, String name, String arn, List<RolePolicy> policies) {
    public Role {
        policies = List.copyOf(policies);
    }

    /** Every statement of every policy, in the order IAM reads them. */
    public List<PolicyStatement> statements() {
        return policies.stream().flatMap(p -> p.statements().stream()).toList();
    }

    public Evaluation evaluate(IamRequest request) {
        return PolicyEvaluator.evaluate(this, request);
    }

    /** A copy of this role without the statement {@code statementId} (unchanged if it has none). */
    public Role without(String statementId) {
        return new Role(
                logicalId,
                name,
                arn,
                policies.stream().map(p -> p.without(statementId)).toList());
    }
}
