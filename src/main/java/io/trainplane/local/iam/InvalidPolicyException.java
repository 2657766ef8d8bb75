package io.trainplane.local.iam;

/**
 * A policy document IAM would refuse, or one using what the simulation does not evaluate (policy
 * variables, IP address or binary operators): found when the stack's policies are loaded, never
 * while a request is evaluated.
 */
public class InvalidPolicyException extends RuntimeException {
    public InvalidPolicyException(String message) {
        super(message);
    }
}
