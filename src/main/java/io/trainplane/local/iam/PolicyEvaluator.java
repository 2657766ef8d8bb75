package io.trainplane.local.iam;

/**
 * IAM's decision for a request made under one role, from the role's identity policies alone (the
 * stack attaches no permissions boundary, session policy or resource policy the simulated calls
 * depend on), as https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html
 * gives it: "An explicit deny in any policy overrides any allows"; otherwise an Allow that
 * applies allows; otherwise the request is implicitly denied.
 */
public final class PolicyEvaluator {
    private PolicyEvaluator() {}

    /** @throws UnknownPolicyException when the role has a managed policy the simulation does not know */
    public static Evaluation evaluate(Role role, IamRequest request) {
        for (RolePolicy policy : role.policies()) {
            if (!policy.known()) {
                throw new UnknownPolicyException(role.logicalId(), policy.managedArn());
            }
        }
        String allowedBy = null;
        for (PolicyStatement statement : role.statements()) {
            if (!statement.applies(request)) {
                continue;
            }
            if (statement.effect() == PolicyStatement.Effect.Deny) {
                return new Evaluation(Decision.ExplicitlyDenied, statement.id());
            }
            if (allowedBy == null) {
                allowedBy = statement.id();
            }
        }
        return allowedBy == null ? Evaluation.IMPLICIT_DENY : new Evaluation(Decision.Allowed, allowedBy);
    }
}
