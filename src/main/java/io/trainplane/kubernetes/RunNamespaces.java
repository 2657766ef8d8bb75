package io.trainplane.kubernetes;

import io.trainplane.aws.Deletion;
import io.trainplane.aws.ResourceLifecycle;
import io.trainplane.aws.ResourceState;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import java.util.List;

/**
 * The lifecycle of a run's Kubernetes objects ({@link RunObjects}: its namespace, what the namespace
 * holds, the volume's cluster-scoped objects), in the cluster that holds them. A cluster that no
 * longer exists took them with it: Gone.
 */
public final class RunNamespaces implements ResourceLifecycle<RunNamespaces.InCluster> {
    /** The run's objects in a cluster, by the cluster's EKS name. */
    public record InCluster(String cluster, String runId) {}

    private final ClusterAccess clusters;

    public RunNamespaces(ClusterAccess clusters) {
        this.clusters = clusters;
    }

    /** Ready while some object is left, Gone when none is. */
    @Override
    public ResourceState state(InCluster objects) {
        return remaining(objects).isEmpty() ? new ResourceState.Gone() : new ResourceState.Ready();
    }

    /** Asks for every object to go; Deleting names those still there ({@code kubernetes:Kind/namespace/name}). */
    @Override
    public Deletion delete(InCluster objects) {
        RunObjects run;
        try {
            run = new RunObjects(clusters.connect(objects.cluster()), objects.runId());
        } catch (TerminalException e) {
            if (clusterGone(e)) {
                return new Deletion.Gone();
            }
            throw e;
        }
        run.deleteAll();
        List<String> left = named(run.remaining());
        return left.isEmpty() ? new Deletion.Gone() : new Deletion.Deleting(left);
    }

    /** The objects still there, as the inventory names them ({@code kubernetes:Kind/namespace/name}); none once the cluster is gone. */
    public List<String> remaining(InCluster objects) {
        try {
            return named(new RunObjects(clusters.connect(objects.cluster()), objects.runId()).remaining());
        } catch (TerminalException e) {
            if (clusterGone(e)) {
                return List.of();
            }
            throw e;
        }
    }

    private static boolean clusterGone(TerminalException e) {
        return e.reason() == FailureReason.ClusterNotFound;
    }

    private static List<String> named(List<String> refs) {
        return refs.stream().map(ref -> "kubernetes:" + ref).toList();
    }
}
