package io.trainplane.workflow;

import io.trainplane.aws.eks.ControlPlaneLogGroup;
import io.trainplane.runs.RunPhase;
import io.trainplane.runs.RunResources;

/**
 * The create calls of a run's cluster and of its control-plane log group, which comes first
 * ({@link ControlPlaneLogGroup}): CreateCluster asks for the log group, CheckCluster for the
 * cluster once the log group exists.
 */
final class ClusterCreation {
    private ClusterCreation() {}

    /** The log group, with the stack's retention and the run's tags; its name and request token go into the record. */
    static void requestLogGroup(RunContext run, Services services, Infrastructure infrastructure) {
        String logGroup = ControlPlaneLogGroup.name(run.names().clusterName());
        // Recorded before the call: if this Lambda dies after Cloud Control accepted it, cleanup still finds the log group.
        services.store().update(run.runId(), r -> r.withResource(RunResources.LOG_GROUP, logGroup).withPhase(RunPhase.CLUSTER));
        var request = infrastructure.ec2().createControlPlaneLogGroup(run.names(), infrastructure.tags(run.names()),
                infrastructure.settings().logRetentionDays());
        services.store().update(run.runId(), r -> r.withResource(RunResources.LOG_GROUP_REQUEST, request.requestToken()));
    }

    static String createCluster(RunContext run, Services services, Infrastructure infrastructure) {
        String cluster = run.names().clusterName();
        // Recorded before the call: if this Lambda dies after EKS accepted it, cleanup still finds the cluster.
        services.store().update(run.runId(), r -> r.withResource(RunResources.EKS_CLUSTER, cluster)
                .withResource(RunResources.KUBERNETES_CLUSTER, cluster));
        infrastructure.clusters().create(run.names(), infrastructure.tags(run.names()), run.spec().cluster(),
                infrastructure.settings().network(), infrastructure.settings().roles());
        return cluster;
    }
}
