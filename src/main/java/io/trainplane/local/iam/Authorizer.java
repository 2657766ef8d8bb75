package io.trainplane.local.iam;

/**
 * Decides whether a caller may make a request in the simulated account, and remembers the
 * decision (the audit log). The simulated services ask it before each call and refuse what it
 * denies with the service's {@code AccessDeniedException}.
 */
public interface Authorizer {
    /** Decides and records one request. */
    AuditEntry authorize(Caller caller, IamRequest request);

    /** Allows everything and records nothing: for tests of a service's own behaviour. */
    Authorizer ALLOW_ALL = (caller, request) -> AuditEntry.of(caller, request, Decision.Allowed, null);
}
