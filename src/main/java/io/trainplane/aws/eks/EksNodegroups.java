package io.trainplane.aws.eks;

import io.trainplane.aws.ClusterNetwork;
import io.trainplane.aws.ClusterRoles;
import io.trainplane.aws.Deletion;
import io.trainplane.aws.ResourceLifecycle;
import io.trainplane.aws.ResourceState;
import io.trainplane.aws.RunTags;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.core.TransientException;
import io.trainplane.spec.Names;
import io.trainplane.spec.NodeGroupSpec;
import java.util.List;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.eks.model.CreateNodegroupRequest;
import software.amazon.awssdk.services.eks.model.InvalidParameterException;
import software.amazon.awssdk.services.eks.model.Nodegroup;
import software.amazon.awssdk.services.eks.model.NodegroupStatus;
import software.amazon.awssdk.services.eks.model.ResourceInUseException;
import software.amazon.awssdk.services.eks.model.ResourceLimitExceededException;
import software.amazon.awssdk.services.eks.model.ResourceNotFoundException;
import software.amazon.awssdk.services.eks.model.UnsupportedAvailabilityZoneException;

/** The lifecycle of a run's managed node group: create (or adopt the run's own), state, delete. */
public final class EksNodegroups implements ResourceLifecycle<EksNodegroups.InCluster> {
    /** A node group by its name and its cluster's: what names it in the run record. */
    public record InCluster(String cluster, String nodegroup) {}

    private final EksClient eks;

    public EksNodegroups(EksClient eks) {
        this.eks = eks;
    }

    /**
     * Creates the run's node group ({@link EksRequests#createNodegroup}) in the run's cluster, or
     * adopts it when it already exists with the run's tags.
     *
     * @throws TerminalException when the cluster does not exist, a node group of that name
     *     belongs to something else, or EKS refuses the request for good
     */
    public Creation create(
            Names names,
            RunTags tags,
            NodeGroupSpec spec,
            ClusterNetwork network,
            ClusterRoles roles,
            String launchTemplateId) {
        return create(tags, EksRequests.createNodegroup(names, tags, spec, network, roles, launchTemplateId));
    }

    /**
     * Creates the created cluster's system node group ({@link EksRequests#createSystemNodegroup}),
     * or adopts it when it already exists with the run's tags.
     *
     * @throws TerminalException as {@link #create(Names, RunTags, NodeGroupSpec, ClusterNetwork, ClusterRoles, String)}
     */
    public Creation createSystem(
            Names names, RunTags tags, ClusterNetwork network, ClusterRoles roles, String launchTemplateId) {
        return create(tags, EksRequests.createSystemNodegroup(names, tags, network, roles, launchTemplateId));
    }

    private Creation create(RunTags tags, CreateNodegroupRequest request) {
        String what = "EKS node group " + request.nodegroupName() + " of cluster " + request.clusterName();
        try {
            eks.createNodegroup(request);
            return Creation.CREATED;
        } catch (ResourceInUseException e) {
            adopt(tags, request, e);
            return Creation.ADOPTED;
        } catch (ResourceNotFoundException e) {
            throw new TerminalException(
                    FailureReason.ClusterNotFound,
                    "cannot create " + what + ": the cluster does not exist in " + EksFailures.region(eks) + " ("
                            + EksFailures.detail(e) + ")",
                    e);
        } catch (ResourceLimitExceededException | InvalidParameterException | UnsupportedAvailabilityZoneException e) {
            throw EksFailures.refusal(e, "CreateNodegroup", what, EksFailures.region(eks));
        }
    }

    private void adopt(RunTags tags, CreateNodegroupRequest request, ResourceInUseException inUse) {
        Nodegroup existing;
        try {
            existing = describe(request.clusterName(), request.nodegroupName());
        } catch (ResourceNotFoundException gone) {
            throw new TransientException(
                    "EKS node group " + request.nodegroupName()
                            + " was in use and is now gone (deleted meanwhile); creating it again",
                    inUse);
        }
        if (!tags.on(existing.tags())) {
            throw new TerminalException(
                    FailureReason.NodegroupNameTaken,
                    "a node group named " + request.nodegroupName()
                            + " already exists in EKS cluster " + request.clusterName() + " and is not run "
                            + tags.runId()
                            + "'s of stack " + tags.stack() + " (" + EksFailures.owner(existing.tags())
                            + "): delete that node group, or start the run under another runId",
                    inUse);
        }
    }

    @Override
    public ResourceState state(InCluster nodegroup) {
        return state(nodegroup.cluster(), nodegroup.nodegroup());
    }

    @Override
    public Deletion delete(InCluster nodegroup) {
        return delete(nodegroup.cluster(), nodegroup.nodegroup());
    }

    /** Where the node group stands; {@link ResourceState.Gone} when it (or its cluster) is gone. */
    public ResourceState state(String clusterName, String nodegroupName) {
        if (!listed(clusterName, nodegroupName)) {
            return new ResourceState.Gone();
        }
        Nodegroup nodegroup;
        try {
            nodegroup = describe(clusterName, nodegroupName);
        } catch (ResourceNotFoundException e) {
            return new ResourceState.Gone();
        }
        String what = "EKS node group " + nodegroupName;
        NodegroupStatus status = nodegroup.status();
        if (status == null) {
            return new ResourceState.Creating(what + " reports no status yet");
        }
        return switch (status) {
            case ACTIVE -> new ResourceState.Ready();
            case CREATING, UPDATING -> new ResourceState.Creating(what + " is " + status);
            case DELETING -> new ResourceState.Deleting();
            case CREATE_FAILED -> new ResourceState.Failed(what + " could not be created: " + issues(nodegroup));
            case DEGRADED -> new ResourceState.Failed(what + " is degraded: " + issues(nodegroup));
            case DELETE_FAILED ->
                new ResourceState.Failed(what + " could not be deleted: " + issues(nodegroup)
                        + "; delete it in the EKS console once the cause is fixed");
            case UNKNOWN_TO_SDK_VERSION ->
                new ResourceState.Creating(
                        what + " reports status " + nodegroup.statusAsString() + ", unknown to this version");
        };
    }

    private static String issues(Nodegroup nodegroup) {
        List<EksFailures.HealthIssue> issues = nodegroup.health() == null
                        || !nodegroup.health().hasIssues()
                ? List.of()
                : nodegroup.health().issues().stream()
                        .map(i -> new EksFailures.HealthIssue(
                                i.codeAsString(), i.message(), i.hasResourceIds() ? i.resourceIds() : List.of()))
                        .toList();
        return EksFailures.describe(
                issues, "EKS reports no health issue; see the node group's Auto Scaling group activity");
    }

    /**
     * Asks EKS to delete the node group: {@link Deletion.Deleting} when accepted or already under
     * way, {@link Deletion.Gone} when there is nothing to delete, {@link Deletion.Blocked} when
     * EKS refuses for now (an update in progress).
     */
    public Deletion delete(String clusterName, String nodegroupName) {
        if (!listed(clusterName, nodegroupName)) {
            return new Deletion.Gone();
        }
        try {
            eks.deleteNodegroup(r -> r.clusterName(clusterName).nodegroupName(nodegroupName));
            return new Deletion.Deleting();
        } catch (ResourceNotFoundException e) {
            return new Deletion.Gone();
        } catch (ResourceInUseException e) {
            try {
                Nodegroup nodegroup = describe(clusterName, nodegroupName);
                if (nodegroup.status() == NodegroupStatus.DELETING) {
                    return new Deletion.Deleting();
                }
                return new Deletion.Blocked("EKS node group " + nodegroupName + " is " + nodegroup.statusAsString()
                        + " and cannot be deleted yet: try again when that finishes (EKS: " + EksFailures.detail(e)
                        + ")");
            } catch (ResourceNotFoundException gone) {
                return new Deletion.Gone();
            }
        } catch (InvalidParameterException e) {
            throw EksFailures.refusal(e, "DeleteNodegroup", "EKS node group " + nodegroupName, EksFailures.region(eks));
        }
    }

    /**
     * Whether the cluster lists the node group. Asked before describing or deleting it because the
     * run records a node group before EKS accepts its create: one that was never made has no tags,
     * so the role (which may touch tagged node groups only) is refused DescribeNodegroup and
     * DeleteNodegroup for it, where ListNodegroups on the tagged cluster answers.
     */
    private boolean listed(String clusterName, String nodegroupName) {
        try {
            // The cluster first: EKS answers ListNodegroups of a missing cluster with ResourceNotFound,
            // moto (the tests' peer) with a 500.
            eks.describeCluster(r -> r.name(clusterName));
            return eks.listNodegroupsPaginator(r -> r.clusterName(clusterName)).nodegroups().stream()
                    .anyMatch(nodegroupName::equals);
        } catch (ResourceNotFoundException e) {
            return false;
        }
    }

    private Nodegroup describe(String clusterName, String nodegroupName) {
        return eks.describeNodegroup(r -> r.clusterName(clusterName).nodegroupName(nodegroupName))
                .nodegroup();
    }
}
