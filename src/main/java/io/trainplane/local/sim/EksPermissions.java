package io.trainplane.local.sim;

import static io.trainplane.local.sim.IamRequests.list;
import static io.trainplane.local.sim.IamRequests.on;
import static io.trainplane.local.sim.IamRequests.passRole;
import static io.trainplane.local.sim.IamRequests.tagging;
import static io.trainplane.local.sim.IamRequests.untagging;

import io.trainplane.local.iam.IamRequest;
import io.trainplane.local.sim.EksRecords.ClusterRecord;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.eks.model.CreateAddonRequest;
import software.amazon.awssdk.services.eks.model.CreateClusterRequest;
import software.amazon.awssdk.services.eks.model.CreateNodegroupRequest;
import software.amazon.awssdk.services.eks.model.DeleteAddonRequest;
import software.amazon.awssdk.services.eks.model.DeleteClusterRequest;
import software.amazon.awssdk.services.eks.model.DeleteNodegroupRequest;
import software.amazon.awssdk.services.eks.model.DescribeAddonRequest;
import software.amazon.awssdk.services.eks.model.DescribeClusterRequest;
import software.amazon.awssdk.services.eks.model.DescribeNodegroupRequest;
import software.amazon.awssdk.services.eks.model.ListAddonsRequest;
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
 * a role handed to EKS needs iam:PassRole.
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
                    var asked = list(tagging("eks:CreateCluster", "*", null, r.tags()), passRole(r.roleArn(), "eks.amazonaws.com"));
                    if (r.hasTags() && !r.tags().isEmpty()) {
                        asked.add(tagging("eks:TagResource", cluster(r.name()), null, r.tags()));
                    }
                    yield asked;
                }
                case DescribeClusterRequest r -> list(onCluster("eks:DescribeCluster", r.name()));
                case DeleteClusterRequest r -> list(onCluster("eks:DeleteCluster", r.name()));
                case ListNodegroupsRequest r -> list(onCluster("eks:ListNodegroups", r.clusterName()));
                case ListAddonsRequest r -> list(onCluster("eks:ListAddons", r.clusterName()));
                case ListPodIdentityAssociationsRequest r -> list(onCluster("eks:ListPodIdentityAssociations", r.clusterName()));
                case CreateNodegroupRequest r -> {
                    var asked = list(tagging("eks:CreateNodegroup", cluster(r.clusterName()), clusterTags(r.clusterName()), r.tags()),
                            passRole(r.nodeRole(), "eks.amazonaws.com"));
                    if (r.hasTags() && !r.tags().isEmpty()) {
                        asked.add(tagging("eks:TagResource", newArn("nodegroup", r.clusterName(), r.nodegroupName()), null, r.tags()));
                    }
                    yield asked;
                }
                case DescribeNodegroupRequest r -> list(onNodegroup("eks:DescribeNodegroup", r.clusterName(), r.nodegroupName()));
                case DeleteNodegroupRequest r -> list(onNodegroup("eks:DeleteNodegroup", r.clusterName(), r.nodegroupName()));
                case CreateAddonRequest r -> {
                    var asked = list(tagging("eks:CreateAddon", cluster(r.clusterName()), clusterTags(r.clusterName()), r.tags()));
                    if (r.hasTags() && !r.tags().isEmpty()) {
                        asked.add(tagging("eks:TagResource", newArn("addon", r.clusterName(), r.addonName()), null, r.tags()));
                    }
                    // https://docs.aws.amazon.com/eks/latest/userguide/add-ons-iam.html: the add-on's
                    // Pod Identity roles are passed to pods.eks.amazonaws.com.
                    r.podIdentityAssociations().forEach(a -> asked.add(passRole(a.roleArn(), "pods.eks.amazonaws.com")));
                    yield asked;
                }
                case DescribeAddonRequest r -> list(onAddon("eks:DescribeAddon", r.clusterName(), r.addonName()));
                case DeleteAddonRequest r -> list(onAddon("eks:DeleteAddon", r.clusterName(), r.addonName()));
                case TagResourceRequest r -> list(tagging("eks:TagResource", r.resourceArn(), tagsOf(r.resourceArn()), r.tags()));
                case UntagResourceRequest r -> list(untagging("eks:UntagResource", r.resourceArn(), tagsOf(r.resourceArn()), r.tagKeys()));
                case ListTagsForResourceRequest r -> list(on("eks:ListTagsForResource", r.resourceArn(), tagsOf(r.resourceArn())));
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

    private IamRequest onAddon(String action, String cluster, String name) {
        ClusterRecord c = account.clusters.get(cluster);
        var a = c == null ? null : c.addons.get(name);
        return a != null ? on(action, a.arn(), a.tags) : on(action, newArn("addon", cluster, name), null);
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
