package io.trainplane.workflow;

import io.trainplane.core.TerminalException;
import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.clients.Clients;
import io.trainplane.aws.ResourceState;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;

/**
 * Looks once at the run's EKS cluster: ACTIVE, still creating (~10 min), or failed with EKS's
 * reason. Before the cluster is asked for, it waits for the control-plane log group and then asks
 * EKS for the cluster ({@link ClusterCreation}).
 */
public final class CheckClusterStep implements Step {
    static final int WAIT_SECONDS = 60;
    static final int LOG_GROUP_WAIT_SECONDS = 10;

    private final Services services;
    private final Infrastructure infrastructure;

    public CheckClusterStep(Clients clients) {
        this.services = Services.of(clients);
        this.infrastructure = Infrastructure.of(clients);
    }

    /** The EKS and Cloud Control clients, as invocations use them. */
    @Override
    public void prime(RunContext sample, Clients offline) {
        offline.eks().describeCluster(r -> r.name(sample.clusterName()));
        offline.cloudControl().getResourceRequestStatus(r -> r.requestToken(SnapStartHooks.RUN_ID));
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        String cluster = run.names().clusterName();
        RunRecord record = services.store().get(run.runId());
        ResourceState state = record.resources().has(RunResources.EKS_CLUSTER)
                ? infrastructure.clusters().state(cluster) : new ResourceState.Gone();
        if (state instanceof ResourceState.Gone) {
            // Not asked for yet, or asked for and the answer lost (throttled, timed out): asking
            // again is the same request (EKS's client token) or adopts what it made.
            String token = record.resources().get(RunResources.LOG_GROUP_REQUEST).orElse(null);
            if (token == null) {
                throw new TerminalException("LogGroupNotRequested", "the run record of " + run.runId()
                        + " names no request for the log group of cluster " + cluster + " (CreateCluster did not finish)");
            }
            ResourceState logGroup = infrastructure.ec2().requestState(token);
            if (!(logGroup instanceof ResourceState.Ready)) {
                return ResourceWait.look(logGroup, "control-plane log group of " + cluster, LOG_GROUP_WAIT_SECONDS);
            }
            ClusterCreation.createCluster(run, services, infrastructure);
            state = infrastructure.clusters().state(cluster);
        }
        return ResourceWait.look(state, "EKS cluster " + cluster, WAIT_SECONDS);
    }
}
