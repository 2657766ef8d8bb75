package io.trainplane.local.sim;

import static io.trainplane.local.sim.IamRequests.list;
import static io.trainplane.local.sim.IamRequests.on;
import static io.trainplane.local.sim.IamRequests.passRole;
import static io.trainplane.local.sim.IamRequests.tagging;
import static io.trainplane.local.sim.IamRequests.taggingOnCreate;
import static io.trainplane.local.sim.IamRequests.untagging;

import io.trainplane.local.iam.IamRequest;
import io.trainplane.local.iam.PrincipalArn;
import io.trainplane.local.sim.EksRecords.ClusterRecord;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.eks.model.AssociateAccessPolicyRequest;
import software.amazon.awssdk.services.eks.model.CreateAccessEntryRequest;
import software.amazon.awssdk.services.eks.model.CreateAddonRequest;
import software.amazon.awssdk.services.eks.model.CreateClusterRequest;
import software.amazon.awssdk.services.eks.model.CreateNodegroupRequest;
import software.amazon.awssdk.services.eks.model.CreatePodIdentityAssociationRequest;
import software.amazon.awssdk.services.eks.model.DeleteAccessEntryRequest;
import software.amazon.awssdk.services.eks.model.DeleteAddonRequest;
import software.amazon.awssdk.services.eks.model.DeleteClusterRequest;
import software.amazon.awssdk.services.eks.model.DeleteNodegroupRequest;
import software.amazon.awssdk.services.eks.model.DeletePodIdentityAssociationRequest;
import software.amazon.awssdk.services.eks.model.DescribeAccessEntryRequest;
import software.amazon.awssdk.services.eks.model.DescribeAddonRequest;
import software.amazon.awssdk.services.eks.model.DescribeClusterRequest;
import software.amazon.awssdk.services.eks.model.DescribeNodegroupRequest;
import software.amazon.awssdk.services.eks.model.DescribePodIdentityAssociationRequest;
import software.amazon.awssdk.services.eks.model.DisassociateAccessPolicyRequest;
import software.amazon.awssdk.services.eks.model.ListAccessEntriesRequest;
import software.amazon.awssdk.services.eks.model.ListAddonsRequest;
import software.amazon.awssdk.services.eks.model.ListAssociatedAccessPoliciesRequest;
import software.amazon.awssdk.services.eks.model.ListClustersRequest;
import software.amazon.awssdk.services.eks.model.ListNodegroupsRequest;
import software.amazon.awssdk.services.eks.model.ListPodIdentityAssociationsRequest;
import software.amazon.awssdk.services.eks.model.ListTagsForResourceRequest;
import software.amazon.awssdk.services.eks.model.TagResourceRequest;
import software.amazon.awssdk.services.eks.model.UntagResourceRequest;

/**
 * EKS's actions, resources and condition keys
 * (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonelastickubernetesservice.html):
 * CreateCluster has no resource type; CreateNodegroup and CreateAddon act on the cluster;
 * Describe/Delete of a node group or an add-on act on that node group or add-on, whose own tags
 * (not its cluster's) are {@code aws:ResourceTag}. A create that sets tags also needs
 * eks:TagResource on the new resource (https://docs.aws.amazon.com/eks/latest/userguide/eks-using-tags.html),
 * a role handed to EKS needs iam:PassRole. CreateAccessEntry and ListAccessEntries act on the
 * cluster, with {@code eks:principalArn}, {@code eks:accessEntryType}, {@code eks:username} and
 * {@code eks:kubernetesGroups} from the request; the other access entry operations act on the
 * entry ({@code access-entry/CLUSTER/role|user/ACCOUNT/NAME/UUID}) and its own tags, and
 * Associate/DisassociateAccessPolicy add {@code eks:policyArn}, {@code eks:accessScope} and
 * {@code eks:namespaces}.
 */
final class EksPermissions implements Permissions {
    private static final String EKS = IamRequests.ARN + "eks:" + IamRequests.REGIONAL;
    private final EksAccount account;

    EksPermissions(EksAccount account) {
        this.account = account;
    }

    @Override
    public List<IamRequest> of(String operation, SdkRequest request) {
        synchronized (account) {
            return switch (request) {
                case CreateClusterRequest r -> {
                    var asked = list(
                            tagging("eks:CreateCluster", "*", null, r.tags()),
                            passRole(r.roleArn(), "eks.amazonaws.com"));
                    asked.addAll(taggingOnCreate("eks:TagResource", cluster(r.name()), r.tags()));
                    yield asked;
                }
                case DescribeClusterRequest r -> list(onCluster("eks:DescribeCluster", r.name()));
                case DeleteClusterRequest r -> list(onCluster("eks:DeleteCluster", r.name()));
                case ListNodegroupsRequest r -> list(onCluster("eks:ListNodegroups", r.clusterName()));
                case ListAddonsRequest r -> list(onCluster("eks:ListAddons", r.clusterName()));
                case ListPodIdentityAssociationsRequest r ->
                    list(onCluster("eks:ListPodIdentityAssociations", r.clusterName()));
                // https://docs.aws.amazon.com/eks/latest/userguide/pod-id-association.html: the role is
                // passed to pods.eks.amazonaws.com; the association acts on the cluster, later calls on
                // the association (podidentityassociation/CLUSTER/ID) and its own tags.
                case CreatePodIdentityAssociationRequest r -> {
                    var asked = list(
                            tagging(
                                    "eks:CreatePodIdentityAssociation",
                                    cluster(r.clusterName()),
                                    clusterTags(r.clusterName()),
                                    r.tags()),
                            passRole(r.roleArn(), "pods.eks.amazonaws.com"));
                    // The id is EKS's to give: a stand-in names the new association.
                    asked.addAll(taggingOnCreate(
                            "eks:TagResource",
                            EKS + "podidentityassociation/" + r.clusterName() + "/a-00000000000000000",
                            r.tags()));
                    yield asked;
                }
                case DescribePodIdentityAssociationRequest r ->
                    list(onPodIdentity("eks:DescribePodIdentityAssociation", r.clusterName(), r.associationId()));
                case DeletePodIdentityAssociationRequest r ->
                    list(onPodIdentity("eks:DeletePodIdentityAssociation", r.clusterName(), r.associationId()));
                case CreateNodegroupRequest r -> {
                    var asked = list(
                            tagging(
                                    "eks:CreateNodegroup",
                                    cluster(r.clusterName()),
                                    clusterTags(r.clusterName()),
                                    r.tags()),
                            passRole(r.nodeRole(), "eks.amazonaws.com"));
                    asked.addAll(taggingOnCreate(
                            "eks:TagResource", newArn("nodegroup", r.clusterName(), r.nodegroupName()), r.tags()));
                    yield asked;
                }
                case DescribeNodegroupRequest r ->
                    list(onNodegroup("eks:DescribeNodegroup", r.clusterName(), r.nodegroupName()));
                case DeleteNodegroupRequest r ->
                    list(onNodegroup("eks:DeleteNodegroup", r.clusterName(), r.nodegroupName()));
                case software.amazon.awssdk.services.eks.model.UpdateNodegroupConfigRequest r ->
                    list(onNodegroup("eks:UpdateNodegroupConfig", r.clusterName(), r.nodegroupName()));
                // https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonelastickubernetesservice.html:
                // DescribeUpdate is authorized on the cluster, node group or add-on the update is of.
                case software.amazon.awssdk.services.eks.model.DescribeUpdateRequest r ->
                    list(
                            r.nodegroupName() != null
                                    ? onNodegroup("eks:DescribeUpdate", r.name(), r.nodegroupName())
                                    : onCluster("eks:DescribeUpdate", r.name()));
                case CreateAddonRequest r -> {
                    var asked = list(tagging(
                            "eks:CreateAddon", cluster(r.clusterName()), clusterTags(r.clusterName()), r.tags()));
                    asked.addAll(taggingOnCreate(
                            "eks:TagResource", newArn("addon", r.clusterName(), r.addonName()), r.tags()));
                    // https://docs.aws.amazon.com/eks/latest/userguide/add-ons-iam.html: the add-on's
                    // Pod Identity roles are passed to pods.eks.amazonaws.com.
                    r.podIdentityAssociations()
                            .forEach(a -> asked.add(passRole(a.roleArn(), "pods.eks.amazonaws.com")));
                    yield asked;
                }
                case DescribeAddonRequest r -> list(onAddon("eks:DescribeAddon", r.clusterName(), r.addonName()));
                case DeleteAddonRequest r -> list(onAddon("eks:DeleteAddon", r.clusterName(), r.addonName()));
                case CreateAccessEntryRequest r -> {
                    var asked = list(createAccessEntry(r));
                    asked.addAll(taggingOnCreate(
                            "eks:TagResource", newAccessEntryArn(r.clusterName(), r.principalArn()), r.tags()));
                    yield asked;
                }
                case ListAccessEntriesRequest r -> list(onCluster("eks:ListAccessEntries", r.clusterName()));
                case DescribeAccessEntryRequest r ->
                    list(onAccessEntry("eks:DescribeAccessEntry", r.clusterName(), r.principalArn()));
                case DeleteAccessEntryRequest r ->
                    list(onAccessEntry("eks:DeleteAccessEntry", r.clusterName(), r.principalArn()));
                case ListAssociatedAccessPoliciesRequest r ->
                    list(onAccessEntry("eks:ListAssociatedAccessPolicies", r.clusterName(), r.principalArn()));
                case AssociateAccessPolicyRequest r -> {
                    IamRequest asked = onAccessEntry("eks:AssociateAccessPolicy", r.clusterName(), r.principalArn());
                    asked = withValue(asked, "eks:policyArn", r.policyArn());
                    if (r.accessScope() != null) {
                        asked = withValue(
                                asked, "eks:accessScope", r.accessScope().typeAsString());
                        if (r.accessScope().hasNamespaces()
                                && !r.accessScope().namespaces().isEmpty()) {
                            asked = asked.with("eks:namespaces", r.accessScope().namespaces());
                        }
                    }
                    yield list(asked);
                }
                case DisassociateAccessPolicyRequest r ->
                    list(withValue(
                            onAccessEntry("eks:DisassociateAccessPolicy", r.clusterName(), r.principalArn()),
                            "eks:policyArn",
                            r.policyArn()));
                case TagResourceRequest r ->
                    list(tagging("eks:TagResource", r.resourceArn(), tagsOf(r.resourceArn()), r.tags()));
                case UntagResourceRequest r ->
                    list(untagging("eks:UntagResource", r.resourceArn(), tagsOf(r.resourceArn()), r.tagKeys()));
                case ListTagsForResourceRequest r ->
                    list(on("eks:ListTagsForResource", r.resourceArn(), tagsOf(r.resourceArn())));
                case ListClustersRequest r -> list(IamRequest.of("eks:ListClusters", "*"));
                default -> Permissions.unmapped(operation);
            };
        }
    }

    private IamRequest onCluster(String action, String name) {
        return on(action, cluster(name), clusterTags(name));
    }

    private IamRequest onNodegroup(String action, String cluster, String name) {
        ClusterRecord c = account.clusters.get(cluster);
        var n = c == null ? null : c.nodegroups.get(name);
        return n != null ? on(action, n.arn(), n.tags) : on(action, newArn("nodegroup", cluster, name), null);
    }

    private IamRequest onPodIdentity(String action, String cluster, String id) {
        ClusterRecord c = account.clusters.get(cluster);
        var p = c == null || id == null ? null : c.podIdentities.get(id);
        return on(action, EKS + "podidentityassociation/" + cluster + "/" + id, p == null ? null : p.tags);
    }

    private IamRequest onAddon(String action, String cluster, String name) {
        ClusterRecord c = account.clusters.get(cluster);
        var a = c == null ? null : c.addons.get(name);
        return a != null ? on(action, a.arn(), a.tags) : on(action, newArn("addon", cluster, name), null);
    }

    /** On the cluster, with the entry's own condition keys beside the request's tags. */
    private IamRequest createAccessEntry(CreateAccessEntryRequest r) {
        IamRequest asked =
                tagging("eks:CreateAccessEntry", cluster(r.clusterName()), clusterTags(r.clusterName()), r.tags());
        asked = withValue(asked, "eks:principalArn", r.principalArn());
        asked = withValue(asked, "eks:accessEntryType", r.type());
        asked = withValue(asked, "eks:username", r.username());
        return r.hasKubernetesGroups() && !r.kubernetesGroups().isEmpty()
                ? asked.with("eks:kubernetesGroups", r.kubernetesGroups())
                : asked;
    }

    private IamRequest onAccessEntry(String action, String cluster, String principalArn) {
        ClusterRecord c = cluster == null ? null : account.clusters.get(cluster);
        var e = c == null || principalArn == null ? null : c.accessEntries.get(principalArn);
        return e != null ? on(action, e.arn(), e.tags) : on(action, newAccessEntryArn(cluster, principalArn), null);
    }

    /** A condition key the request sets only when it carries the value. */
    private static IamRequest withValue(IamRequest request, String key, String value) {
        return value == null ? request : request.with(key, value);
    }

    /**
     * The ARN of an access entry that does not exist (yet), with a fixed UUID as {@link #newArn}; a
     * principal that is no IAM role or user (EKS refuses it after IAM) is named as given.
     */
    private static String newAccessEntryArn(String cluster, String principalArn) {
        PrincipalArn p = PrincipalArn.iam(principalArn);
        if (p == null) {
            p = new PrincipalArn(String.valueOf(principalArn), "user", AwsService.ACCOUNT, "invalid-principal");
        }
        return EksRecords.accessEntryArn(
                cluster,
                p,
                UUID.nameUUIDFromBytes((cluster + "/" + p.arn()).getBytes(StandardCharsets.UTF_8))
                        .toString());
    }

    private static String cluster(String name) {
        return EKS + "cluster/" + name;
    }

    private Map<String, String> clusterTags(String name) {
        ClusterRecord c = name == null ? null : account.clusters.get(name);
        return c == null ? null : c.tags;
    }

    private Map<String, String> tagsOf(String arn) {
        try {
            return account.tagsOf(arn);
        } catch (RuntimeException notFound) {
            return null;
        }
    }

    /**
     * The ARN of a node group or add-on that does not exist (yet): its last part is a UUID EKS
     * assigns at creation; a fixed one stands in for it, and no policy of the stack names it.
     */
    private static String newArn(String type, String cluster, String name) {
        return EKS + type + "/" + cluster + "/" + name + "/"
                + UUID.nameUUIDFromBytes((cluster + "/" + name).getBytes(StandardCharsets.UTF_8));
    }
}
