package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.ResourceState;
import io.trainplane.aws.Settings;
import io.trainplane.aws.ec2.Ec2Objects;
import io.trainplane.aws.eks.EksClusters;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStore;
import java.util.function.Supplier;

/**
 * Looks once at the run's EKS cluster: ACTIVE, still creating (~10 min), or failed with EKS's
 * reason. Before the cluster is asked for, it waits for the control-plane log group and then asks
 * EKS for the cluster ({@link ClusterCreation}), and Cloud Control for the system node group's
 * launch template: it needs nothing of the cluster, so it is ready long before CreateNodegroup
 * wants it. Asked for only once a request status has been read (the log group's), so a run that
 * cannot read them leaves no template that cleanup could name only by its request.
 */
public final class CheckClusterStep implements Step {
    static final int WAIT_SECONDS = 60;
    static final int LOG_GROUP_WAIT_SECONDS = 10;

    private final RunStore store;
    private final Supplier<EksClusters> clusters;
    private final Supplier<Ec2Objects> ec2;
    private final Settings settings;

    /** EKS and Cloud Control as suppliers: a look that finds the log group not ready yet never builds the EKS client. */
    public CheckClusterStep(
            RunStore store, Supplier<EksClusters> clusters, Supplier<Ec2Objects> ec2, Settings settings) {
        this.store = store;
        this.clusters = clusters;
        this.ec2 = ec2;
        this.settings = settings;
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        String cluster = run.names().clusterName();
        RunRecord record = store.get(run.runId());
        ResourceState state = record.resources().has(RunResources.EKS_CLUSTER)
                ? clusters.get().state(cluster)
                : new ResourceState.Gone();
        if (state instanceof ResourceState.Gone) {
            // Not asked for yet, or asked for and the answer lost (throttled, timed out): asking
            // again is the same request (EKS's client token) or adopts what it made.
            String token =
                    record.resources().get(RunResources.LOG_GROUP_REQUEST).orElse(null);
            if (token == null) {
                throw new TerminalException(
                        FailureReason.LogGroupNotRequested,
                        "the run record of " + run.runId() + " names no request for the log group of cluster " + cluster
                                + " (CreateCluster did not finish)");
            }
            ResourceState logGroup = ec2.get().requestState(token);
            if (!(logGroup instanceof ResourceState.Ready)) {
                return ResourceWait.look(logGroup, "control-plane log group of " + cluster, LOG_GROUP_WAIT_SECONDS);
            }
            NodegroupPrerequisites.systemLaunchTemplate(run, store, ec2, settings);
            ClusterCreation.createCluster(run, store, clusters, settings);
            state = clusters.get().state(cluster);
        }
        return ResourceWait.look(state, "EKS cluster " + cluster, WAIT_SECONDS);
    }
}
