package io.trainplane.aws.eks;

import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.core.TransientException;
import java.util.List;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.eks.model.EksException;
import software.amazon.awssdk.services.eks.model.Nodegroup;
import software.amazon.awssdk.services.eks.model.NodegroupStatus;
import software.amazon.awssdk.services.eks.model.ResourceInUseException;
import software.amazon.awssdk.services.eks.model.ResourceNotFoundException;

/**
 * The warm node group of a long-lived cluster ({@code cluster.mode: warm}): a managed node group
 * its owner keeps at zero nodes between runs, which a run scales to the nodes it needs and back to
 * zero with UpdateNodegroupConfig (https://docs.aws.amazon.com/eks/latest/APIReference/API_UpdateNodegroupConfig.html).
 * Only a node group tagged {@link #WARM_TAG} {@code = true} is scaled: the stack's role may change
 * no other (template.yaml, ScaleWarmNodegroups).
 */
public final class WarmNodegroups {
    /** The tag that lets Trainplane scale a node group it did not create. */
    public static final String WARM_TAG = "trainplane:warm";

    /** A warm node group, and the nodes a run asks of it. */
    public record Warm(String cluster, String nodegroup) {
        /** {@code <cluster>/<nodegroup>}, as the run record and the claims name it. */
        public String ref() {
            return cluster + "/" + nodegroup;
        }

        public static Warm of(String ref) {
            int slash = ref.indexOf('/');
            return new Warm(ref.substring(0, slash), ref.substring(slash + 1));
        }
    }

    /** What a look at the node group found: its status and its desired size now. */
    public record Scaling(NodegroupStatus status, int desired) {
        public boolean updating() {
            return status == NodegroupStatus.UPDATING;
        }
    }

    private final EksClient eks;

    public WarmNodegroups(EksClient eks) {
        this.eks = eks;
    }

    /**
     * Checks that the node group can be a run's warm node group for {@code nodes} nodes, before
     * anything is created: it exists, carries {@link #WARM_TAG}, may scale to zero (minSize 0) and
     * to {@code nodes} (maxSize). Each refusal names the field or the command that fixes it.
     *
     * @return the node group's instance type (its first, for a diversified one), for the run's cost
     */
    public String requireWarm(Warm warm, int nodes) {
        Nodegroup n = describe(warm);
        String fix = "aws eks update-nodegroup-config --cluster-name " + warm.cluster() + " --nodegroup-name "
                + warm.nodegroup() + " --scaling-config ";
        if (!n.hasTags() || !"true".equals(n.tags().get(WARM_TAG))) {
            throw new TerminalException(
                    FailureReason.WarmNodegroupNotTagged,
                    "node group " + warm.nodegroup() + " of cluster " + warm.cluster() + " is not tagged " + WARM_TAG
                            + "=true, so the stack may not scale it; nothing was created. Tag it: aws eks tag-resource"
                            + " --resource-arn " + n.nodegroupArn() + " --tags " + WARM_TAG + "=true");
        }
        var scaling = n.scalingConfig();
        if (scaling.minSize() != 0) {
            throw new TerminalException(
                    FailureReason.WarmNodegroupMinSize,
                    "node group " + warm.nodegroup() + " has minSize " + scaling.minSize()
                            + ": a warm node group must be able to scale to zero between runs; nothing was created."
                            + " Set it: " + fix + "minSize=0");
        }
        if (scaling.maxSize() < nodes) {
            throw new TerminalException(
                    FailureReason.WarmNodegroupTooSmall,
                    "node group " + warm.nodegroup() + " scales to at most " + scaling.maxSize() + " nodes; the run"
                            + " asks " + nodes + " (cluster.nodes); nothing was created. Lower cluster.nodes, or raise"
                            + " its maxSize: " + fix + "maxSize=" + nodes);
        }
        return n.hasInstanceTypes() && !n.instanceTypes().isEmpty()
                ? n.instanceTypes().getFirst()
                : "unknown";
    }

    /** The node group's status and desired size now. */
    public Scaling scaling(Warm warm) {
        Nodegroup n = describe(warm);
        return new Scaling(n.status(), n.scalingConfig().desiredSize());
    }

    /**
     * Asks for {@code nodes} nodes, unless the node group already wants that many. An update
     * already under way (EKS takes one at a time) is {@link TransientException}: ask again later.
     * {@code token} makes a repeated ask the same update.
     */
    public Scaling scaleTo(Warm warm, int nodes, String token) {
        Scaling now = scaling(warm);
        if (now.desired() == nodes) {
            return now;
        }
        if (now.updating()) {
            throw new TransientException("node group " + warm.nodegroup() + " is UPDATING; scaling to " + nodes
                    + " nodes waits for that update to finish");
        }
        try {
            eks.updateNodegroupConfig(r -> r.clusterName(warm.cluster())
                    .nodegroupName(warm.nodegroup())
                    .clientRequestToken(token)
                    .scalingConfig(s -> s.desiredSize(nodes)));
        } catch (ResourceInUseException e) {
            throw new TransientException("node group " + warm.nodegroup() + " cannot be scaled yet (EKS: "
                    + EksFailures.detail(e) + "); asking again");
        }
        return new Scaling(NodegroupStatus.UPDATING, nodes);
    }

    /**
     * The node group, as EKS describes it. The stack's role may describe only node groups tagged
     * {@link #WARM_TAG} (template.yaml), so IAM refuses an untagged one and one that does not exist
     * alike (a missing resource has no tags): the cluster's list of node groups, which the role may
     * read, tells the two apart.
     */
    private Nodegroup describe(Warm warm) {
        try {
            return eks.describeNodegroup(r -> r.clusterName(warm.cluster()).nodegroupName(warm.nodegroup()))
                    .nodegroup();
        } catch (EksException e) {
            boolean denied = "AccessDeniedException".equals(e.awsErrorDetails().errorCode());
            if (!denied && !(e instanceof ResourceNotFoundException)) {
                throw e;
            }
            List<String> groups = nodegroups(warm.cluster());
            if (!groups.contains(warm.nodegroup())) {
                throw new TerminalException(
                        FailureReason.WarmNodegroupNotFound,
                        "cluster " + warm.cluster() + " has no node group " + warm.nodegroup() + "; nothing was"
                                + " created. Set cluster.nodegroupName to one of: " + String.join(", ", groups));
            }
            if (!denied) {
                throw e;
            }
            throw new TerminalException(
                    FailureReason.WarmNodegroupNotTagged,
                    "the stack may not read node group " + warm.nodegroup() + " of cluster " + warm.cluster()
                            + ": its role scales only node groups tagged " + WARM_TAG + "=true; nothing was created."
                            + " Tag it: aws eks tag-resource --resource-arn $(aws eks describe-nodegroup --cluster-name "
                            + warm.cluster() + " --nodegroup-name " + warm.nodegroup()
                            + " --query nodegroup.nodegroupArn --output text) --tags " + WARM_TAG + "=true (EKS: "
                            + EksFailures.detail(e) + ")");
        }
    }

    private List<String> nodegroups(String cluster) {
        try {
            return eks.listNodegroupsPaginator(r -> r.clusterName(cluster)).nodegroups().stream()
                    .toList();
        } catch (ResourceNotFoundException noCluster) {
            throw new TerminalException(
                    FailureReason.ClusterNotFound,
                    "EKS cluster " + cluster + " does not exist; nothing was created. Check cluster.name");
        }
    }
}
