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
import io.trainplane.spec.ClusterSpec;
import io.trainplane.spec.Names;
import java.util.List;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.eks.model.Cluster;
import software.amazon.awssdk.services.eks.model.ClusterStatus;
import software.amazon.awssdk.services.eks.model.CreateClusterRequest;
import software.amazon.awssdk.services.eks.model.InvalidParameterException;
import software.amazon.awssdk.services.eks.model.ResourceInUseException;
import software.amazon.awssdk.services.eks.model.ResourceLimitExceededException;
import software.amazon.awssdk.services.eks.model.ResourceNotFoundException;
import software.amazon.awssdk.services.eks.model.UnsupportedAvailabilityZoneException;

/**
 * The lifecycle of a run's EKS cluster: create (or adopt the run's own), state, describe, delete.
 * Each call asks EKS once and returns; the state machine does the waiting.
 */
public final class EksClusters implements ResourceLifecycle<String> {
    private final EksClient eks;

    public EksClusters(EksClient eks) {
        this.eks = eks;
    }

    /**
     * Creates the run's cluster ({@link EksRequests#createCluster}), or adopts it when it already
     * exists with the run's tags, {@code trainplane:stack} and {@code trainplane:run-id} (a retried step).
     *
     * @throws TerminalException when a cluster of that name belongs to something else, or EKS
     *     refuses the request for good (quota, parameters, zone)
     */
    public Creation create(Names names, RunTags tags, ClusterSpec spec, ClusterNetwork network, ClusterRoles roles) {
        CreateClusterRequest request = EksRequests.createCluster(names, tags, spec, network, roles);
        try {
            eks.createCluster(request);
            return Creation.CREATED;
        } catch (ResourceInUseException e) {
            adopt(tags, request.name(), e);
            return Creation.ADOPTED;
        } catch (ResourceLimitExceededException | InvalidParameterException | UnsupportedAvailabilityZoneException e) {
            throw EksFailures.refusal(e, "CreateCluster", "EKS cluster " + request.name(), EksFailures.region(eks));
        }
    }

    private void adopt(RunTags tags, String name, ResourceInUseException inUse) {
        Cluster existing;
        try {
            existing = eks.describeCluster(r -> r.name(name)).cluster();
        } catch (ResourceNotFoundException gone) {
            throw new TransientException(
                    "EKS cluster " + name + " was in use and is now gone (deleted meanwhile); " + "creating it again",
                    inUse);
        }
        if (!tags.on(existing.tags())) {
            throw new TerminalException(
                    FailureReason.ClusterNameTaken,
                    "an EKS cluster named " + name + " already exists in "
                            + EksFailures.region(eks) + " and is not run " + tags.runId() + "'s of stack "
                            + tags.stack()
                            + " (" + EksFailures.owner(existing.tags())
                            + "): delete that cluster, or start the run under another runId",
                    inUse);
        }
    }

    /** Where the cluster stands; {@link ResourceState.Gone} when EKS does not know it. */
    @Override
    public ResourceState state(String clusterName) {
        Cluster cluster;
        try {
            cluster = eks.describeCluster(r -> r.name(clusterName)).cluster();
        } catch (ResourceNotFoundException e) {
            return new ResourceState.Gone();
        }
        ClusterStatus status = cluster.status();
        if (status == null) {
            return new ResourceState.Creating("EKS cluster " + clusterName + " reports no status yet");
        }
        return switch (status) {
            case ACTIVE -> new ResourceState.Ready();
            case CREATING, PENDING, UPDATING ->
                new ResourceState.Creating("EKS cluster " + clusterName + " is " + status);
            case DELETING -> new ResourceState.Deleting();
            case FAILED ->
                new ResourceState.Failed("EKS cluster " + clusterName + " failed: "
                        + EksFailures.describe(
                                issues(cluster),
                                "EKS reports no health issue; see the cluster in the EKS console and CloudTrail"));
            case UNKNOWN_TO_SDK_VERSION ->
                new ResourceState.Creating("EKS cluster " + clusterName + " reports status " + cluster.statusAsString()
                        + ", unknown to this version");
        };
    }

    private static List<EksFailures.HealthIssue> issues(Cluster cluster) {
        if (cluster.health() == null || !cluster.health().hasIssues()) {
            return List.of();
        }
        return cluster.health().issues().stream()
                .map(i -> new EksFailures.HealthIssue(
                        i.codeAsString(), i.message(), i.hasResourceIds() ? i.resourceIds() : List.of()))
                .toList();
    }

    /**
     * What later steps need to reach the cluster.
     *
     * @throws TerminalException ClusterNotFound when EKS does not know it
     */
    public ClusterEndpoint describe(String clusterName) {
        Cluster cluster;
        try {
            cluster = eks.describeCluster(r -> r.name(clusterName)).cluster();
        } catch (ResourceNotFoundException e) {
            throw new TerminalException(
                    FailureReason.ClusterNotFound,
                    "EKS cluster " + clusterName + " does not exist in " + EksFailures.region(eks),
                    e);
        }
        var vpc = cluster.resourcesVpcConfig();
        return new ClusterEndpoint(
                cluster.name(),
                cluster.endpoint(),
                cluster.certificateAuthority() == null
                        ? null
                        : cluster.certificateAuthority().data(),
                vpc == null ? null : vpc.clusterSecurityGroupId(),
                vpc == null ? null : vpc.vpcId());
    }

    /**
     * Asks EKS to delete the cluster. {@link Deletion.Blocked} when EKS refuses because node
     * groups (or an operation in progress) still hold it: delete those, then call again.
     */
    @Override
    public Deletion delete(String clusterName) {
        // Described first: the run records its cluster before EKS accepts the create, and one that
        // was never made has no tags, so the role (which may delete tagged clusters only) would be
        // refused DeleteCluster where DescribeCluster answers that it does not exist.
        try {
            eks.describeCluster(r -> r.name(clusterName));
        } catch (ResourceNotFoundException e) {
            return new Deletion.Gone();
        }
        try {
            eks.deleteCluster(r -> r.name(clusterName));
            return new Deletion.Deleting();
        } catch (ResourceNotFoundException e) {
            return new Deletion.Gone();
        } catch (ResourceInUseException e) {
            return whileInUse(clusterName, e);
        } catch (InvalidParameterException e) {
            throw EksFailures.refusal(e, "DeleteCluster", "EKS cluster " + clusterName, EksFailures.region(eks));
        }
    }

    private Deletion whileInUse(String clusterName, ResourceInUseException inUse) {
        try {
            Cluster cluster = eks.describeCluster(r -> r.name(clusterName)).cluster();
            if (cluster.status() == ClusterStatus.DELETING) {
                return new Deletion.Deleting();
            }
            List<String> nodegroups = eks.listNodegroupsPaginator(r -> r.clusterName(clusterName)).nodegroups().stream()
                    .toList();
            if (!nodegroups.isEmpty()) {
                return new Deletion.Blocked("EKS cluster " + clusterName + " still has node groups " + nodegroups
                        + ": delete them first (EKS: " + EksFailures.detail(inUse) + ")");
            }
            return new Deletion.Blocked("EKS cluster " + clusterName + " is " + cluster.statusAsString()
                    + " and cannot be deleted yet: try again when that finishes (EKS: " + EksFailures.detail(inUse)
                    + ")");
        } catch (ResourceNotFoundException gone) {
            return new Deletion.Gone();
        }
    }
}
