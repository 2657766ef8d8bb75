package io.trainplane.local.iam;

/** What IAM decided for one request, named as the audit log and iam-simulate write it. */
public enum Decision {
    Allowed,
    /** No statement allowed it (AWS's default deny). */
    ImplicitlyDenied,
    /** A Deny statement matched. */
    ExplicitlyDenied;

    public boolean allowed() {
        return this == Allowed;
    }
}
