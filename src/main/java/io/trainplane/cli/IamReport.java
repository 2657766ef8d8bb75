package io.trainplane.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import io.trainplane.local.iam.ConditionTest;
import io.trainplane.local.iam.IamQuotas;
import io.trainplane.local.iam.PolicyStatement;
import io.trainplane.local.iam.Role;
import io.trainplane.local.iam.RolePolicy;
import io.trainplane.local.iam.StackTemplate;
import java.io.PrintWriter;
import java.util.stream.Collectors;

/** What {@code trainplane iam} prints: every role the stack creates with its resolved policies. */
public final class IamReport {
    private IamReport() {}

    /**
     * {"account", "region", "stack", "roles": [{"logicalId", "name", "arn", "quotas": [{"quota", "what",
     * "used", "limit"}], "policies": [{"name", "document"}]}]} (quotas: IAM's, {@link IamQuotas}); a managed policy also has "managedPolicyArn", and "known": false with a
     * null document when the simulation does not ship its document.
     */
    public static ObjectNode json(StackTemplate template) {
        ObjectNode report = Json.object()
                .put("account", template.account().accountId())
                .put("region", template.account().region())
                .put("stack", template.account().stackName());
        ArrayNode roles = report.putArray("roles");
        for (Role role : template.roles().values()) {
            ObjectNode node = roles.addObject()
                    .put("logicalId", role.logicalId())
                    .put("name", role.name())
                    .put("arn", role.arn());
            ArrayNode quotas = node.putArray("quotas");
            for (IamQuotas.Usage usage : template.quotas(role.logicalId())) {
                quotas.addObject()
                        .put("quota", usage.quota())
                        .put("what", usage.what())
                        .put("used", usage.used())
                        .put("limit", usage.limit());
            }
            ArrayNode policies = node.putArray("policies");
            for (RolePolicy policy : role.policies()) {
                ObjectNode p = policies.addObject().put("name", policy.name());
                if (policy.managed()) {
                    p.put("managedPolicyArn", policy.managedArn());
                }
                if (!policy.known()) {
                    p.put("known", false);
                }
                p.set(
                        "document",
                        policy.known() ? policy.document() : Json.mapper().nullNode());
            }
        }
        return report;
    }

    static void text(StackTemplate template, PrintWriter out) {
        out.println("Roles of stack " + template.account().stackName() + " in account "
                + template.account().accountId() + " (" + template.account().region()
                + "), as IAM evaluates them in local mode:");
        for (Role role : template.roles().values()) {
            out.println();
            out.println(role.logicalId() + "  " + role.arn());
            out.println("  IAM quotas: "
                    + template.quotas(role.logicalId()).stream()
                            .map(u -> String.format(
                                    "%s %,d of %,d%s",
                                    u.what(),
                                    u.used(),
                                    u.limit(),
                                    u.quota().equals("PoliciesPerRole") ? "" : " characters"))
                            .collect(Collectors.joining("; ")));
            for (RolePolicy policy : role.policies()) {
                String kind = !policy.managed()
                        ? "inline"
                        : "managed " + policy.managedArn()
                                + (policy.known()
                                        ? ""
                                        : "; not known to the simulation:"
                                                + " requests made under this role cannot be evaluated");
                out.println("  " + policy.name() + " (" + kind + ")");
                for (PolicyStatement statement : policy.statements()) {
                    out.println("    " + statement.id() + ": " + statement.effect()
                            + (statement.notAction() ? " all but " : " ") + String.join(", ", statement.actions()));
                    out.println("      " + (statement.notResource() ? "on all but " : "on ")
                            + String.join(", ", statement.resources()));
                    if (!statement.conditions().isEmpty()) {
                        out.println("      if "
                                + statement.conditions().stream()
                                        .map(ConditionTest::toString)
                                        .collect(Collectors.joining(" and ")));
                    }
                }
            }
        }
    }
}
