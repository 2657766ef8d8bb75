package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.Clients;

/** Looks once at the run's EKS cluster: ACTIVE, still creating (~10 min), or failed with EKS's reason. */
public final class CheckClusterStep implements Step {
    static final int WAIT_SECONDS = 60;

    private final Infrastructure infrastructure;

    public CheckClusterStep(Clients clients) {
        this.infrastructure = Infrastructure.of(clients);
    }

    /** The EKS client, as every invocation uses it. */
    @Override
    public void prime(RunContext sample, Clients offline) {
        offline.eks().describeCluster(r -> r.name(sample.clusterName()));
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        String cluster = run.names().clusterName();
        return ResourceWait.look(infrastructure.clusters().state(cluster), "EKS cluster " + cluster, WAIT_SECONDS);
    }
}
