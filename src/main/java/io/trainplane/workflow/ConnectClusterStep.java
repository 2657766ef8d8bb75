package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.trainplane.aws.Clients;
import io.trainplane.kubernetes.RunObjects;
import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.runs.RunResources;

/**
 * Connects to an existing cluster ({@code cluster.mode: existing}) and creates the run's
 * namespace there: proof that the functions' role can reach the API and write to it.
 */
public final class ConnectClusterStep implements KubernetesStep {
    private final Services services;

    public ConnectClusterStep(Clients clients) {
        this.services = Services.of(clients);
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        String cluster = run.clusterName();
        KubernetesClient client = services.clusters().connect(cluster);
        // Written before the create, so cleanup finds the namespace even if this step dies midway.
        services.store().update(run.runId(), r -> r
                .withResource(RunResources.KUBERNETES_CLUSTER, cluster)
                .withResource(RunResources.NAMESPACE, run.names().namespace()));
        try {
            new RunObjects(client, run.runId()).createOrAdopt(new WorkloadManifests(run.spec()).namespace());
        } catch (KubernetesClientException e) {
            if (e.getCode() == 401 || e.getCode() == 403) {
                throw new TerminalException("ClusterAccessDenied", "the Kubernetes API of " + cluster
                        + " refused the functions' role (" + e.getCode() + "); give the role an EKS access entry"
                        + " with the AmazonEKSClusterAdminPolicy (README: Using an existing cluster)", e);
            }
            throw e;
        }
        return Json.object().put("name", cluster).put("namespace", run.names().namespace());
    }
}
