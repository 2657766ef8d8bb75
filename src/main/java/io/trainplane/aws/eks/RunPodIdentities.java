package io.trainplane.aws.eks;

import io.trainplane.aws.Deletion;
import io.trainplane.aws.ResourceLifecycle;
import io.trainplane.aws.ResourceState;
import io.trainplane.aws.RunTags;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import java.util.List;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.eks.model.InvalidParameterException;
import software.amazon.awssdk.services.eks.model.PodIdentityAssociationSummary;
import software.amazon.awssdk.services.eks.model.ResourceInUseException;
import software.amazon.awssdk.services.eks.model.ResourceLimitExceededException;
import software.amazon.awssdk.services.eks.model.ResourceNotFoundException;

/**
 * The EKS Pod Identity association of a run's pods ({@link PodIdentity#RUN_SERVICE_ACCOUNT} in the
 * run's namespace) with the stack's run outputs role, on the run's cluster, created or existing: it
 * belongs to the run, and goes before the cluster. Found by its namespace and service account
 * (ListPodIdentityAssociations), so a create whose answer was lost is found, not made twice.
 */
public final class RunPodIdentities implements ResourceLifecycle<RunPodIdentities.InCluster> {
    /** The run's service account in its namespace, on a cluster. */
    public record InCluster(String cluster, String namespace, String serviceAccount) {
        /** The run's pods' service account in {@code namespace}. */
        public static InCluster runPods(String cluster, String namespace) {
            return new InCluster(cluster, namespace, PodIdentity.RUN_SERVICE_ACCOUNT);
        }

        /** From the run record's {@code namespace/serviceAccount} ({@link #serviceAccountRef}). */
        public static InCluster of(String cluster, String serviceAccountRef) {
            int slash = serviceAccountRef.indexOf('/');
            if (slash <= 0 || slash == serviceAccountRef.length() - 1) {
                throw new IllegalArgumentException("not namespace/serviceAccount: " + serviceAccountRef);
            }
            return new InCluster(
                    cluster, serviceAccountRef.substring(0, slash), serviceAccountRef.substring(slash + 1));
        }

        /** {@code namespace/serviceAccount}, as the run record keeps it. */
        public String serviceAccountRef() {
            return namespace + "/" + serviceAccount;
        }
    }

    private final EksClient eks;

    public RunPodIdentities(EksClient eks) {
        this.eks = eks;
    }

    /**
     * Associates the service account with {@code roleArn}, tagged with the run's tags, unless it is
     * already; the association's id either way. The request token is the run's: a retry of a lost
     * answer is the same request (https://docs.aws.amazon.com/eks/latest/APIReference/API_CreatePodIdentityAssociation.html).
     *
     * @throws TerminalException when the cluster does not exist or EKS refuses the association (a role
     *     that Pod Identity may not assume, say)
     */
    public String ensure(InCluster association, String roleArn, RunTags tags) {
        List<String> existing = associationIds(association);
        if (!existing.isEmpty()) {
            return existing.get(0);
        }
        String what = "EKS Pod Identity association of " + association.namespace() + "/" + association.serviceAccount()
                + " on cluster " + association.cluster();
        try {
            return eks.createPodIdentityAssociation(r -> r.clusterName(association.cluster())
                            .namespace(association.namespace())
                            .serviceAccount(association.serviceAccount())
                            .roleArn(roleArn)
                            .clientRequestToken("tp-" + tags.runId() + "-pods")
                            .tags(tags.asMap()))
                    .association()
                    .associationId();
        } catch (ResourceInUseException e) {
            // Made meanwhile (a retry racing the first attempt): the one there is the run's.
            return associationIds(association).stream().findFirst().orElseThrow(() -> e);
        } catch (ResourceNotFoundException e) {
            throw new TerminalException(
                    FailureReason.ClusterNotFound,
                    "cannot create the " + what + ": the cluster does not exist in " + EksFailures.region(eks) + " ("
                            + EksFailures.detail(e) + ")",
                    e);
        } catch (ResourceLimitExceededException | InvalidParameterException e) {
            throw EksFailures.refusal(e, "CreatePodIdentityAssociation", what, EksFailures.region(eks));
        }
    }

    /** The ids of the associations of the service account; none when the cluster is gone. */
    public List<String> associationIds(InCluster association) {
        try {
            return eks
                    .listPodIdentityAssociationsPaginator(r -> r.clusterName(association.cluster())
                            .namespace(association.namespace())
                            .serviceAccount(association.serviceAccount()))
                    .associations()
                    .stream()
                    .map(PodIdentityAssociationSummary::associationId)
                    .toList();
        } catch (ResourceNotFoundException e) {
            return List.of();
        }
    }

    /** Ready while associated; Gone when not, or when the cluster is gone (its associations go with it). */
    @Override
    public ResourceState state(InCluster association) {
        return associationIds(association).isEmpty() ? new ResourceState.Gone() : new ResourceState.Ready();
    }

    /** Deletes every association of the service account; EKS deletes them at once. */
    @Override
    public Deletion delete(InCluster association) {
        for (String id : associationIds(association)) {
            try {
                eks.deletePodIdentityAssociation(
                        r -> r.clusterName(association.cluster()).associationId(id));
            } catch (ResourceNotFoundException e) {
                // Gone already, or with its cluster.
            }
        }
        return associationIds(association).isEmpty() ? new Deletion.Gone() : new Deletion.Deleting();
    }
}
