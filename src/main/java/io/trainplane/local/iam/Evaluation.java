package io.trainplane.local.iam;

/**
 * What IAM decided for one request and why.
 *
 * @param statement the deciding statement's id: the Deny for {@link Decision#ExplicitlyDenied},
 *                  the first matching Allow for {@link Decision#Allowed}, null for
 *                  {@link Decision#ImplicitlyDenied}
 */
public record Evaluation(Decision decision, String statement) {
    public static final Evaluation IMPLICIT_DENY = new Evaluation(Decision.ImplicitlyDenied, null);
}
