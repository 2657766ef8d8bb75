package io.trainplane.local.iam;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.util.ArrayList;
import java.util.List;

/**
 * IAM's quotas on what a stack's role carries, which CloudFormation meets when it creates the role
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_iam-quotas.html, "IAM and AWS STS
 * character limits" and "IAM object quotas"): the aggregate of its inline policies, each customer
 * managed policy, the managed policies attached, the trust policy. Sizes are in characters, white
 * space not counted ("IAM doesn't count white space when calculating the size of a policy against
 * these quotas"). The adjustable quotas are taken at their defaults: a new account has those.
 */
public final class IamQuotas {
    /** "Role policy size cannot exceed 10,240 characters": the inline policies of a role, together. */
    public static final int ROLE_INLINE_POLICIES = 10_240;
    /** "Managed policy size cannot exceed 6,144 characters": each customer managed policy. */
    public static final int MANAGED_POLICY = 6_144;
    /** "Managed policies attached to an IAM role": 10 by default (adjustable to 20). */
    public static final int MANAGED_POLICIES_PER_ROLE = 10;
    /** "Role trust policy length": 2,048 characters by default (adjustable to 4,096). */
    public static final int TRUST_POLICY = 2_048;

    private IamQuotas() {}

    /** One quota of one role: what it uses of {@code limit}, and the error IAM answers beyond it. */
    public record Usage(String quota, String what, int used, int limit) {
        public boolean exceeded() {
            return used > limit;
        }

        /** The fraction of the limit left. */
        public double headroom() {
            return 1.0 - (double) used / limit;
        }
    }

    /** The characters IAM counts in {@code document}: its JSON without white space. */
    public static int characters(JsonNode document) {
        return (int) Json.write(document)
                .chars()
                .filter(c -> !Character.isWhitespace(c))
                .count();
    }

    /** What {@code role} uses of each quota; {@code trustPolicy} is its AssumeRolePolicyDocument, resolved. */
    public static List<Usage> of(Role role, JsonNode trustPolicy) {
        List<Usage> usage = new ArrayList<>();
        int inline = 0;
        int attached = 0;
        for (RolePolicy policy : role.policies()) {
            if (!policy.managed()) {
                inline += characters(policy.document());
            } else {
                attached++;
                if (policy.customerManaged()) {
                    usage.add(new Usage("PolicySize", policy.name(), characters(policy.document()), MANAGED_POLICY));
                }
            }
        }
        usage.add(0, new Usage("RolePolicySize", "inline policies", inline, ROLE_INLINE_POLICIES));
        usage.add(new Usage("PoliciesPerRole", "managed policies attached", attached, MANAGED_POLICIES_PER_ROLE));
        usage.add(new Usage("ACLSizePerRole", "trust policy", characters(trustPolicy), TRUST_POLICY));
        return usage;
    }

    /**
     * Refuses a role over a quota as IAM does when CloudFormation creates it: LimitExceeded, with
     * IAM's message ("Maximum policy size of 10240 bytes exceeded for role ...", "Cannot exceed quota
     * for PolicySize: 6144", ...).
     */
    static void check(Role role, JsonNode trustPolicy, String where) {
        for (Usage usage : of(role, trustPolicy)) {
            if (!usage.exceeded()) {
                continue;
            }
            String iam = usage.quota().equals("RolePolicySize")
                    ? "Maximum policy size of " + usage.limit() + " bytes exceeded for role " + role.name()
                    : "Cannot exceed quota for " + usage.quota() + ": " + usage.limit();
            String used = usage.quota().equals("PoliciesPerRole")
                    ? usage.used() + " managed policies are attached, over IAM's " + usage.limit() + " per role"
                    : "the " + usage.what() + " take " + usage.used() + " characters (white space not counted),"
                            + " over IAM's " + usage.limit();
            throw new TemplateException(where + ": " + used + "; CloudFormation's create fails with LimitExceeded: "
                    + iam + " (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_iam-quotas.html). Split the"
                    + " statements by responsibility into customer managed policies (AWS::IAM::ManagedPolicy, "
                    + MANAGED_POLICY + " characters each) or roles");
        }
    }
}
