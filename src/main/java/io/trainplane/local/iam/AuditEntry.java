package io.trainplane.local.iam;

import java.util.List;
import java.util.Map;

/**
 * One line of the audit log ({@code trainplane run --audit-log FILE}): who called, what IAM was
 * asked, and what it decided. {@code statement} names the statement that decided
 * ({@code ClusterWorkRole/run-infrastructure/DescribeClusters}), or is null for a default deny.
 */
public record AuditEntry(
        String function,
        String role,
        String principal,
        String action,
        String resource,
        Map<String, List<String>> context,
        Decision decision,
        String statement) {

    public static AuditEntry of(Caller caller, IamRequest request, Decision decision, String statement) {
        return new AuditEntry(
                caller.function(),
                caller.role(),
                caller.arn(),
                request.action(),
                request.resource(),
                request.context(),
                decision,
                statement);
    }
}
