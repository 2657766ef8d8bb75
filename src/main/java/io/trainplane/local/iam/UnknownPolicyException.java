package io.trainplane.local.iam;

/**
 * A request was evaluated for a role with an AWS managed policy whose document the simulation
 * does not ship: deciding without it would be a guess.
 */
public class UnknownPolicyException extends RuntimeException {
    public UnknownPolicyException(String role, String policyArn) {
        super("policy " + policyArn + " of role " + role + " is not known to the simulation"
                + " (add its document to io/trainplane/local/iam/aws-managed-policies.json)");
    }
}
