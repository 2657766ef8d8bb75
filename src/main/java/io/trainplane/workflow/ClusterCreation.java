package io.trainplane.workflow;

import io.trainplane.aws.RunTags;
import io.trainplane.aws.Settings;
import io.trainplane.aws.ec2.ControlPlaneLogGroup;
import io.trainplane.aws.ec2.Ec2Objects;
import io.trainplane.aws.eks.EksClusters;
import io.trainplane.runs.RunPhase;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStore;
import java.util.function.Supplier;

/**
 * The create calls of a run's cluster and of its control-plane log group, which comes first
 * ({@link ControlPlaneLogGroup}): CreateCluster asks for the log group, CheckCluster for the
 * cluster once the log group exists. The AWS parts come as suppliers, asked for after the record is
 * written: an invocation whose write fails builds no SDK client for them.
 */
final class ClusterCreation {
    private ClusterCreation() {}

    /** The log group, with the stack's retention and the run's tags; its name and request token go into the record. */
    static void requestLogGroup(RunContext run, RunStore store, Supplier<Ec2Objects> ec2, Settings settings) {
        String logGroup = ControlPlaneLogGroup.name(run.names().clusterName());
        // Recorded before the call: if this Lambda dies after Cloud Control accepted it, cleanup still finds the log
        // group.
        store.update(run.runId(), r -> r.withResource(RunResources.LOG_GROUP, logGroup)
                .withPhase(RunPhase.CLUSTER));
        var request = ec2.get()
                .createControlPlaneLogGroup(
                        run.names(), RunTags.of(settings, run.names()), settings.logRetentionDays());
        store.update(run.runId(), r -> r.withResource(RunResources.LOG_GROUP_REQUEST, request.requestToken()));
    }

    static String createCluster(RunContext run, RunStore store, Supplier<EksClusters> clusters, Settings settings) {
        String cluster = run.names().clusterName();
        // Recorded before the call: if this Lambda dies after EKS accepted it, cleanup still finds the cluster.
        store.update(run.runId(), r -> r.withResource(RunResources.EKS_CLUSTER, cluster)
                .withResource(RunResources.KUBERNETES_CLUSTER, cluster));
        clusters.get()
                .create(
                        run.names(),
                        RunTags.of(settings, run.names()),
                        run.spec().cluster(),
                        settings.network(),
                        settings.roles());
        return cluster;
    }
}
