package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.Clients;
import io.trainplane.runs.RunResources;

/** Asks EKS for the run's cluster ({@code cluster.mode: create}); CheckCluster waits for it. */
public final class CreateClusterStep implements Step {
    private final Services services;
    private final Infrastructure infrastructure;

    public CreateClusterStep(Clients clients) {
        this.services = Services.of(clients);
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
        // Recorded before the call: if this Lambda dies after EKS accepted it, cleanup still finds the cluster.
        services.store().update(run.runId(), r -> r.withResource(RunResources.EKS_CLUSTER, cluster)
                .withResource(RunResources.KUBERNETES_CLUSTER, cluster).withPhase("cluster"));
        var created = infrastructure.clusters().create(run.names(), run.spec().cluster(),
                infrastructure.settings().network(), infrastructure.settings().roles());
        return Json.object().put("name", cluster).put("creation", created.name());
    }
}
