package io.trainplane.local.sim;

import io.trainplane.local.sim.EksRecords.AccessEntryRecord;
import io.trainplane.local.sim.EksRecords.ClusterRecord;
import java.util.Set;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.eks.model.AccessScopeType;
import software.amazon.awssdk.services.eks.model.AssociatedAccessPolicy;
import software.amazon.awssdk.services.eks.model.AuthenticationMode;

/**
 * What an EKS cluster's API server lets an IAM principal do, once its token is verified
 * (https://docs.aws.amazon.com/eks/latest/userguide/access-entries.html): without an access entry
 * (or, on a CONFIG_MAP cluster, without being its creator) the principal is not authenticated,
 * 401; with one, its access policies decide within their scope, and an entry with neither a
 * policy nor a Kubernetes group may do nothing, 403.
 *
 * <p>More lenient than EKS: the aws-auth ConfigMap is not read (a principal mapped there only is
 * refused, stricter), an entry's Kubernetes groups allow everything (RBAC bindings are not
 * evaluated), and AmazonEKSAdminPolicy and AmazonEKSEditPolicy allow every verb in their scope.
 */
final class ClusterAuthorization {
    private ClusterAuthorization() {}

    sealed interface Decision {}

    record Allowed(String username) implements Decision {}

    /** 401: the API server does not know the principal. */
    record Unauthenticated(String reason) implements Decision {}

    /** 403: it knows the principal, which may not do this. */
    record Forbidden(String username, String reason) implements Decision {}

    /** The policies that only read (https://docs.aws.amazon.com/eks/latest/userguide/access-policy-permissions.html). */
    private static final Set<String> READ_ONLY = Set.of(
            EksAccessEntries.POLICY_PREFIX + "AmazonEKSViewPolicy",
            EksAccessEntries.POLICY_PREFIX + "AmazonEKSAdminViewPolicy");
    /** A namespaced object's path: /api/v1/namespaces/NS/… or /apis/GROUP/VERSION/namespaces/NS/…. */
    private static final Pattern NAMESPACED = Pattern.compile("^/(?:api/v1|apis/[^/]+/[^/]+)/namespaces/([^/]+)/.+$");

    static Decision decide(ClusterRecord c, String principalArn, String method, String path) {
        AuthenticationMode mode = EksAccessEntries.mode(c.request);
        if (mode == AuthenticationMode.CONFIG_MAP) {
            return principalArn.equals(c.creatorArn)
                    ? new Allowed(principalArn)
                    : new Unauthenticated(
                            principalArn + " is not the creator of cluster " + c.name()
                                    + ", whose authentication mode CONFIG_MAP admits no access entries (the aws-auth ConfigMap is not simulated)");
        }
        AccessEntryRecord entry = c.accessEntries.get(principalArn);
        if (entry == null) {
            return new Unauthenticated("no access entry for " + principalArn + " on cluster " + c.name());
        }
        if (!EksAccessEntries.STANDARD.equals(entry.type)) {
            return new Forbidden(entry.username, "its access entry is of type " + entry.type + " (for nodes)");
        }
        boolean read = method.equals("GET") || method.equals("HEAD");
        String namespace = namespaceOf(path);
        for (AssociatedAccessPolicy policy : entry.policies.values()) {
            if ((read || !READ_ONLY.contains(policy.policyArn())) && inScope(policy, namespace)) {
                return new Allowed(entry.username);
            }
        }
        if (!entry.kubernetesGroups.isEmpty()) {
            return new Allowed(entry.username);
        }
        return new Forbidden(
                entry.username,
                entry.policies.isEmpty()
                        ? "its access entry on cluster " + c.name() + " has no access policy and no Kubernetes group"
                        : "no access policy of its entry on cluster " + c.name() + " allows it "
                                + entry.policies.keySet());
    }

    private static boolean inScope(AssociatedAccessPolicy policy, String namespace) {
        if (policy.accessScope().type() == AccessScopeType.CLUSTER) {
            return true;
        }
        return namespace != null
                && policy.accessScope().namespaces().stream().anyMatch(pattern -> matches(pattern, namespace));
    }

    /** A namespace scope may end in {@code *} (https://docs.aws.amazon.com/eks/latest/userguide/access-policies.html). */
    private static boolean matches(String pattern, String namespace) {
        return pattern.endsWith("*")
                ? namespace.startsWith(pattern.substring(0, pattern.length() - 1))
                : pattern.equals(namespace);
    }

    /** The namespace a request acts in, or null for cluster-scoped objects (namespaces themselves among them). */
    static String namespaceOf(String path) {
        int query = path.indexOf('?');
        var m = NAMESPACED.matcher(query < 0 ? path : path.substring(0, query));
        return m.matches() ? m.group(1) : null;
    }
}
