package io.trainplane.local.iam;

/**
 * Who makes a call in the simulated account: a Lambda function of the stack under its execution
 * role, a state machine under its role, or the user at the command line (allowed everything, as an
 * administrator who deploys the stack would be).
 *
 * @param function the function's or state machine's name in template.yaml without "Function"
 *                 ({@code CreateCluster}, {@code TrainingPipeline}), or {@code null} for the user
 * @param role     the role's logical id in template.yaml ({@code ClusterWorkRole}), or {@code null} for the user
 * @param arn      the principal's ARN (the role's ARN, or the user's)
 */
public record Caller(String function, String role, String arn) {
    public static final Caller USER = new Caller(null, null, "arn:aws:iam::000000000000:user/trainplane-user");

    public boolean isUser() {
        return role == null;
    }
}
