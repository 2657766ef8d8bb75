package io.trainplane.workflow;

import io.trainplane.core.Json;
import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.clients.Clients;

/**
 * Starts the run's cluster ({@code cluster.mode: create}): asks Cloud Control for the cluster's
 * control-plane log group, which must exist before EKS gets the cluster
 * ({@link io.trainplane.aws.eks.ControlPlaneLogGroup}); CheckCluster then asks EKS for the
 * cluster and waits for it.
 */
public final class CreateClusterStep implements Step {
    private final Services services;
    private final Infrastructure infrastructure;

    public CreateClusterStep(Clients clients) {
        this.services = Services.of(clients);
        this.infrastructure = Infrastructure.of(clients);
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        ClusterCreation.requestLogGroup(run, services, infrastructure);
        return Json.object().put("name", run.names().clusterName()).put("waitingFor", "log group");
    }
}
