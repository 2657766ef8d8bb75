package io.trainplane.local.iam;

import java.util.regex.Pattern;

/**
 * An IAM principal as EKS names it in access entries: an IAM role or user ARN. A caller that
 * signs with a role's temporary credentials is the session
 * {@code arn:aws:sts::ACCOUNT:assumed-role/ROLE/SESSION}; EKS and aws-iam-authenticator map it to
 * the role {@code arn:aws:iam::ACCOUNT:role/ROLE}
 * (https://github.com/kubernetes-sigs/aws-iam-authenticator/blob/master/pkg/arn/arn.go, Canonicalize).
 *
 * @param type    {@code role} or {@code user}, as the access entry's ARN spells it
 * @param account the principal's 12-digit account
 * @param name    the role's or user's name (the last part of its path)
 */
public record PrincipalArn(String arn, String type, String account, String name) {
    private static final Pattern IAM =
            Pattern.compile("^arn:aws:iam::(\\d{12}):(role|user)/(?:[\\x21-\\x7E]+/)?([\\w+=,.@-]{1,128})$");
    private static final Pattern ASSUMED_ROLE =
            Pattern.compile("^arn:aws:sts::(\\d{12}):assumed-role/([\\w+=,.@-]{1,64})/[\\w+=,.@-]{2,64}$");

    /** An IAM role or user ARN, or null when {@code arn} is neither (an STS session, a service, a typo). */
    public static PrincipalArn iam(String arn) {
        var m = arn == null ? null : IAM.matcher(arn);
        return m != null && m.matches() ? new PrincipalArn(arn, m.group(2), m.group(1), m.group(3)) : null;
    }

    /** The IAM principal behind a caller's ARN: a role session's role, or the IAM ARN itself. */
    public static PrincipalArn canonical(String arn) {
        var session = arn == null ? null : ASSUMED_ROLE.matcher(arn);
        if (session != null && session.matches()) {
            String role = "arn:aws:iam::" + session.group(1) + ":role/" + session.group(2);
            return new PrincipalArn(role, "role", session.group(1), session.group(2));
        }
        PrincipalArn principal = iam(arn);
        if (principal == null) {
            throw new IllegalArgumentException("not an IAM principal or role session ARN: " + arn);
        }
        return principal;
    }
}
