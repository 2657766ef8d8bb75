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
 * @param sessionTags the tags of the role session, which IAM gives policies as
 *                 {@code aws:PrincipalTag/<key>} (https://docs.aws.amazon.com/IAM/latest/UserGuide/id_session-tags.html):
 *                 EKS Pod Identity's for a pod, none for the others
 */
public record Caller(String function, String role, String arn, java.util.Map<String, String> sessionTags) {
    public static final Caller USER = new Caller(null, null, "arn:aws:iam::000000000000:user/trainplane-user");

    public Caller {
        sessionTags = java.util.Map.copyOf(sessionTags);
    }

    public Caller(String function, String role, String arn) {
        this(function, role, arn, java.util.Map.of());
    }

    /** {@code request} as IAM evaluates it for this caller: with its session tags as {@code aws:PrincipalTag/<key>}. */
    public IamRequest asked(IamRequest request) {
        IamRequest asked = request;
        for (var tag : new java.util.TreeMap<>(sessionTags).entrySet()) {
            asked = asked.with("aws:PrincipalTag/" + tag.getKey(), tag.getValue());
        }
        return asked;
    }

    public boolean isUser() {
        return role == null;
    }
}
