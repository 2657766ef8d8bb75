package io.trainplane.local.sim;

import io.trainplane.local.iam.Caller;
import io.trainplane.local.iam.PrincipalArn;
import io.trainplane.local.sim.EksRecords.AccessEntryRecord;
import io.trainplane.local.sim.EksRecords.ClusterRecord;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import software.amazon.awssdk.services.eks.model.AccessScope;
import software.amazon.awssdk.services.eks.model.AccessScopeType;
import software.amazon.awssdk.services.eks.model.AssociateAccessPolicyRequest;
import software.amazon.awssdk.services.eks.model.AssociateAccessPolicyResponse;
import software.amazon.awssdk.services.eks.model.AssociatedAccessPolicy;
import software.amazon.awssdk.services.eks.model.AuthenticationMode;
import software.amazon.awssdk.services.eks.model.CreateAccessEntryRequest;
import software.amazon.awssdk.services.eks.model.CreateAccessEntryResponse;
import software.amazon.awssdk.services.eks.model.CreateClusterRequest;
import software.amazon.awssdk.services.eks.model.DeleteAccessEntryRequest;
import software.amazon.awssdk.services.eks.model.DeleteAccessEntryResponse;
import software.amazon.awssdk.services.eks.model.DescribeAccessEntryRequest;
import software.amazon.awssdk.services.eks.model.DescribeAccessEntryResponse;
import software.amazon.awssdk.services.eks.model.DisassociateAccessPolicyRequest;
import software.amazon.awssdk.services.eks.model.DisassociateAccessPolicyResponse;
import software.amazon.awssdk.services.eks.model.ListAccessEntriesRequest;
import software.amazon.awssdk.services.eks.model.ListAccessEntriesResponse;
import software.amazon.awssdk.services.eks.model.ListAssociatedAccessPoliciesRequest;
import software.amazon.awssdk.services.eks.model.ListAssociatedAccessPoliciesResponse;

/**
 * EKS access entries: which IAM principals may use a cluster's Kubernetes API, and with which
 * access policies (https://docs.aws.amazon.com/eks/latest/userguide/access-entries.html). One
 * entry per principal and cluster; only clusters whose authentication mode includes {@code API}
 * have them; the creator of a cluster gets one with AmazonEKSClusterAdminPolicy unless
 * {@code bootstrapClusterCreatorAdminPermissions} is false. Callers of the operations hold no lock.
 */
final class EksAccessEntries {
    static final String POLICY_PREFIX = "arn:aws:eks::aws:cluster-access-policy/";
    static final String CLUSTER_ADMIN_POLICY = POLICY_PREFIX + "AmazonEKSClusterAdminPolicy";
    static final String STANDARD = "STANDARD";
    /** The access policies for people (https://docs.aws.amazon.com/eks/latest/userguide/access-policy-permissions.html). */
    static final Set<String> POLICIES = Set.of(
            "AmazonEKSClusterAdminPolicy",
            "AmazonEKSAdminPolicy",
            "AmazonEKSEditPolicy",
            "AmazonEKSViewPolicy",
            "AmazonEKSAdminViewPolicy");
    /** CreateAccessEntry's type (https://docs.aws.amazon.com/eks/latest/APIReference/API_CreateAccessEntry.html). */
    private static final Set<String> TYPES =
            Set.of(STANDARD, "EC2", "EC2_LINUX", "EC2_WINDOWS", "FARGATE_LINUX", "HYBRID_LINUX", "HYPERPOD_LINUX");

    private final EksAccount account;
    private final EksErrors errors;

    EksAccessEntries(EksAccount account, EksErrors errors) {
        this.account = account;
        this.errors = errors;
    }

    /** CONFIG_MAP unless the request says otherwise (https://docs.aws.amazon.com/eks/latest/APIReference/API_CreateAccessConfigRequest.html). */
    static AuthenticationMode mode(CreateClusterRequest r) {
        var access = r.accessConfig();
        return access == null || access.authenticationMode() == null
                ? AuthenticationMode.CONFIG_MAP
                : access.authenticationMode();
    }

    /** True unless the request says otherwise (same page). */
    static boolean bootstrapsCreator(CreateClusterRequest r) {
        var access = r.accessConfig();
        return access == null
                || access.bootstrapClusterCreatorAdminPermissions() == null
                || access.bootstrapClusterCreatorAdminPermissions();
    }

    /**
     * CreateCluster's rule: a CONFIG_MAP cluster always makes its creator admin, so it cannot be
     * told not to (the InvalidParameterException quoted in terraform-aws-modules/terraform-aws-eks#3026).
     */
    void requireValidAccessConfig(CreateClusterRequest r) {
        account.require(
                mode(r) != AuthenticationMode.CONFIG_MAP || bootstrapsCreator(r),
                r.name(),
                "bootstrapClusterCreatorAdminPermissions must be true if cluster authentication mode is set to CONFIG_MAP");
    }

    /**
     * Records the new cluster's creator: with an authentication mode that includes API and the
     * bootstrap flag, as an access entry with AmazonEKSClusterAdminPolicy on the cluster
     * (https://docs.aws.amazon.com/eks/latest/APIReference/API_CreateAccessConfigRequest.html); with
     * CONFIG_MAP, as an admin that no configuration shows
     * (https://docs.aws.amazon.com/eks/latest/userguide/security-iam-id-based-policy-examples.html).
     * A role session creates for its role, as EKS maps sessions to roles.
     */
    void bootstrap(ClusterRecord c, Caller creator, Instant now) {
        PrincipalArn principal = PrincipalArn.canonical(creator.arn());
        c.creatorArn = principal.arn();
        if (mode(c.request) != AuthenticationMode.CONFIG_MAP && bootstrapsCreator(c.request)) {
            var entry = new AccessEntryRecord(
                    c.name(), principal, STANDARD, defaultUsername(principal), List.of(), null, account.ids, now);
            entry.policies.put(
                    CLUSTER_ADMIN_POLICY,
                    association(
                            CLUSTER_ADMIN_POLICY,
                            AccessScope.builder().type(AccessScopeType.CLUSTER).build(),
                            now,
                            now));
            c.accessEntries.put(principal.arn(), entry);
        }
    }

    CreateAccessEntryResponse create(CreateAccessEntryRequest r) {
        synchronized (account) {
            Instant now = account.now();
            ClusterRecord c = withEntries(r.clusterName());
            // "You can't use the STS session principal type with access entries" (CreateAccessEntry, principalArn).
            PrincipalArn principal = PrincipalArn.iam(r.principalArn());
            account.require(principal != null, c.name(), "The principalArn parameter format is not valid");
            String type = r.type() == null ? STANDARD : r.type();
            account.require(
                    TYPES.contains(type),
                    c.name(),
                    "The type parameter must be one of "
                            + TYPES.stream().sorted().toList());
            boolean groups = r.hasKubernetesGroups() && !r.kubernetesGroups().isEmpty();
            // Node types take no username or groups, and only roles (same page: type, principalArn).
            account.require(
                    STANDARD.equals(type) || (!groups && r.username() == null && "role".equals(principal.type())),
                    c.name(),
                    "Access entries of type " + type + " take an IAM role and no username or kubernetesGroups");
            AccessEntryRecord existing = c.accessEntries.get(principal.arn());
            if (existing != null) {
                if (existing.request != null
                        && EksAccount.sameRequest(existing.request.clientRequestToken(), existing.request, r)) {
                    return CreateAccessEntryResponse.builder()
                            .accessEntry(EksViews.accessEntry(existing))
                            .build();
                }
                throw errors.accessEntryExists(c.name());
            }
            var created = new AccessEntryRecord(
                    c.name(),
                    principal,
                    type,
                    r.username() != null ? r.username() : defaultUsername(principal),
                    groups ? r.kubernetesGroups() : List.of(),
                    r,
                    account.ids,
                    now);
            c.accessEntries.put(principal.arn(), created);
            return CreateAccessEntryResponse.builder()
                    .accessEntry(EksViews.accessEntry(created))
                    .build();
        }
    }

    DescribeAccessEntryResponse describe(DescribeAccessEntryRequest r) {
        synchronized (account) {
            account.now();
            return DescribeAccessEntryResponse.builder()
                    .accessEntry(EksViews.accessEntry(entry(r.clusterName(), r.principalArn())))
                    .build();
        }
    }

    ListAccessEntriesResponse list(ListAccessEntriesRequest r) {
        synchronized (account) {
            account.now();
            ClusterRecord c = withEntries(r.clusterName());
            var principals = c.accessEntries.values().stream()
                    .filter(e -> r.associatedPolicyArn() == null || e.policies.containsKey(r.associatedPolicyArn()))
                    .map(e -> e.principal.arn())
                    .toList();
            var page = account.page(principals, r.nextToken(), r.maxResults());
            return ListAccessEntriesResponse.builder()
                    .accessEntries(page.items())
                    .nextToken(page.nextToken())
                    .build();
        }
    }

    DeleteAccessEntryResponse delete(DeleteAccessEntryRequest r) {
        synchronized (account) {
            account.now();
            AccessEntryRecord e = entry(r.clusterName(), r.principalArn());
            account.cluster(e.cluster).accessEntries.remove(e.principal.arn());
            return DeleteAccessEntryResponse.builder().build();
        }
    }

    /**
     * Associates (or re-scopes) an access policy: STANDARD entries only, a cluster scope without
     * namespaces or a namespace scope with some
     * (https://docs.aws.amazon.com/eks/latest/userguide/access-policies.html).
     */
    AssociateAccessPolicyResponse associate(AssociateAccessPolicyRequest r) {
        synchronized (account) {
            Instant now = account.now();
            AccessEntryRecord e = entry(r.clusterName(), r.principalArn());
            String policy = r.policyArn();
            account.require(
                    policy != null
                            && policy.startsWith(POLICY_PREFIX)
                            && POLICIES.contains(policy.substring(POLICY_PREFIX.length())),
                    e.cluster,
                    "The policyArn " + policy + " is not an EKS access policy (aws eks list-access-policies)");
            account.require(
                    STANDARD.equals(e.type),
                    e.cluster,
                    "Access policies can only be associated with access entries of type STANDARD");
            AccessScope scope = r.accessScope();
            account.require(
                    scope != null && scope.type() != null && scope.type() != AccessScopeType.UNKNOWN_TO_SDK_VERSION,
                    e.cluster,
                    "accessScope.type must be cluster or namespace");
            boolean namespaces = scope.hasNamespaces() && !scope.namespaces().isEmpty();
            account.require(
                    scope.type() == AccessScopeType.NAMESPACE ? namespaces : !namespaces,
                    e.cluster,
                    "accessScope.namespaces must be given for a namespace scope and only for it");
            var previous = e.policies.get(policy);
            var associated = association(policy, scope, previous == null ? now : previous.associatedAt(), now);
            e.policies.put(policy, associated);
            return AssociateAccessPolicyResponse.builder()
                    .clusterName(e.cluster)
                    .principalArn(e.principal.arn())
                    .associatedAccessPolicy(associated)
                    .build();
        }
    }

    DisassociateAccessPolicyResponse disassociate(DisassociateAccessPolicyRequest r) {
        synchronized (account) {
            account.now();
            AccessEntryRecord e = entry(r.clusterName(), r.principalArn());
            if (e.policies.remove(r.policyArn()) == null) {
                throw errors.policyNotAssociated(e.cluster, r.policyArn());
            }
            return DisassociateAccessPolicyResponse.builder().build();
        }
    }

    ListAssociatedAccessPoliciesResponse listAssociated(ListAssociatedAccessPoliciesRequest r) {
        synchronized (account) {
            account.now();
            AccessEntryRecord e = entry(r.clusterName(), r.principalArn());
            var page = account.page(List.copyOf(e.policies.values()), r.nextToken(), r.maxResults());
            return ListAssociatedAccessPoliciesResponse.builder()
                    .clusterName(e.cluster)
                    .principalArn(e.principal.arn())
                    .associatedAccessPolicies(page.items())
                    .nextToken(page.nextToken())
                    .build();
        }
    }

    /** The clusters whose API server is at {@code endpoint} and up (ACTIVE, or still DELETING). */
    List<String> clustersServedAt(String endpoint) {
        synchronized (account) {
            Instant now = account.now();
            return account.clusters.values().stream()
                    .filter(c -> endpoint.equals(c.startedEndpoint()) && c.life.phase(now) != Lifecycle.Phase.CREATING)
                    .map(ClusterRecord::name)
                    .toList();
        }
    }

    /** What the cluster's API server lets the principal do with {@code method} on {@code path}. */
    ClusterAuthorization.Decision kubernetesAccess(String cluster, String principalArn, String method, String path) {
        synchronized (account) {
            account.now();
            ClusterRecord c = account.clusters.get(cluster);
            return c == null
                    ? new ClusterAuthorization.Unauthenticated("cluster " + cluster + " no longer exists")
                    : ClusterAuthorization.decide(c, principalArn, method, path);
        }
    }

    /** The entry of {@code principalArn} on the cluster, or EKS's ResourceNotFoundException. */
    AccessEntryRecord entry(String cluster, String principalArn) {
        AccessEntryRecord e =
                principalArn == null ? null : withEntries(cluster).accessEntries.get(principalArn);
        if (e == null) {
            throw errors.accessEntryNotFound(cluster);
        }
        return e;
    }

    /** The cluster, if its authentication mode allows access entries. */
    private ClusterRecord withEntries(String name) {
        ClusterRecord c = account.cluster(name);
        if (mode(c.request) == AuthenticationMode.CONFIG_MAP) {
            throw errors.accessEntriesNotEnabled(c.name());
        }
        return c;
    }

    /**
     * What EKS names the principal in Kubernetes when the entry does not say: a role's session, or
     * the user's ARN (https://docs.aws.amazon.com/eks/latest/userguide/creating-access-entries.html).
     */
    private static String defaultUsername(PrincipalArn p) {
        return "role".equals(p.type())
                ? "arn:aws:sts::" + p.account() + ":assumed-role/" + p.name() + "/{{SessionName}}"
                : p.arn();
    }

    private static AssociatedAccessPolicy association(
            String policy, AccessScope scope, Instant associatedAt, Instant modifiedAt) {
        return AssociatedAccessPolicy.builder()
                .policyArn(policy)
                .accessScope(scope)
                .associatedAt(associatedAt)
                .modifiedAt(modifiedAt)
                .build();
    }
}
