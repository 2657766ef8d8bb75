package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.trainplane.aws.RunTags;
import io.trainplane.aws.Settings;
import io.trainplane.aws.eks.RunPodIdentities;
import io.trainplane.core.FailureReason;
import io.trainplane.core.Json;
import io.trainplane.core.TerminalException;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.kubernetes.ClusterPrerequisites;
import io.trainplane.kubernetes.RunObjects;
import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStore;
import java.util.List;
import java.util.function.Supplier;

/**
 * Connects to the cluster and creates the run's namespace there (proof that the functions' role can
 * reach the API and write to it), its service account and the image pre-pull, which starts pulling
 * the training image onto the nodes as they come. On a created cluster this runs as soon as the
 * API server answers, before the nodes exist. A cluster
 * that refuses the role (no access entry: 401; an entry without the rights: 403) fails the run
 * as ClusterAccessDenied, with the commands that fix it; a cluster without what the spec uses
 * (operator, CSI driver, device plugins) fails it as ClusterPrerequisitesMissing, with what to install.
 */
public final class ConnectClusterStep implements KubernetesStep {
    static final FailureReason PREREQUISITES_MISSING = FailureReason.ClusterPrerequisitesMissing;

    private final RunStore store;
    private final ClusterAccess clusters;
    private final Supplier<RunPodIdentities> podIdentities;
    private final Settings settings;

    public ConnectClusterStep(
            RunStore store, ClusterAccess clusters, Supplier<RunPodIdentities> podIdentities, Settings settings) {
        this.store = store;
        this.clusters = clusters;
        this.podIdentities = podIdentities;
        this.settings = settings;
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        String cluster = run.clusterName();
        KubernetesClient client = clusters.connect(cluster);
        String namespace = run.names().namespace();
        boolean existed;
        try {
            // A read first: a cluster that refuses the role fails the run before anything is recorded.
            existed = client.namespaces().withName(namespace).get() != null;
            if (!run.spec().cluster().created()) {
                refuseWhatIsMissing(client, cluster, run);
            }
        } catch (KubernetesClientException e) {
            throw KubernetesFailures.refused(e) ? KubernetesFailures.accessDenied(cluster, e) : e;
        }
        // Written before the create, so cleanup finds the namespace even if this step dies midway.
        store.update(run.runId(), r -> r.withResource(RunResources.KUBERNETES_CLUSTER, cluster)
                .withResource(RunResources.NAMESPACE, namespace));
        WorkloadManifests manifests = new WorkloadManifests(run.spec());
        try {
            RunObjects objects = new RunObjects(client, run.runId());
            objects.createOrAdopt(manifests.namespace());
            objects.createOrAdopt(manifests.serviceAccount());
            objects.createOrAdopt(manifests.imagePrepull());
        } catch (KubernetesClientException e) {
            if (!KubernetesFailures.refused(e)) {
                throw e;
            }
            if (!existed) {
                // Refused, so not created: cleanup has nothing to delete there (and would be refused too).
                store.update(run.runId(), r -> r.withoutResource(RunResources.NAMESPACE)
                        .withoutResource(RunResources.KUBERNETES_CLUSTER));
            }
            throw KubernetesFailures.accessDenied(cluster, e);
        }
        associateRunPods(run, cluster, namespace);
        return Json.object().put("name", cluster).put("namespace", namespace);
    }

    /**
     * Gives the run's pods the stack's run outputs role through EKS Pod Identity: recorded before
     * the create (cleanup finds it by namespace and service account), its id after. A stack without
     * the role (settings without it) gives the pods no AWS identity.
     */
    private void associateRunPods(RunContext run, String cluster, String namespace) {
        String role = settings.roles().runOutputsRoleArn();
        if (role.isEmpty()) {
            return;
        }
        var association = RunPodIdentities.InCluster.runPods(cluster, namespace);
        store.update(
                run.runId(),
                r -> r.withResource(RunResources.POD_IDENTITY_SERVICE_ACCOUNT, association.serviceAccountRef()));
        String id = podIdentities.get().ensure(association, role, RunTags.of(settings, run.names()));
        store.update(run.runId(), r -> r.withResource(RunResources.POD_IDENTITY, id));
    }

    /**
     * A cluster the run does not create must already have what the spec uses (the training
     * operator, the EFS CSI driver, GPU and EFA device plugins): checked before the run records or
     * creates anything, so a refused run leaves nothing behind.
     */
    static void refuseWhatIsMissing(KubernetesClient client, String cluster, RunContext run) {
        List<ClusterPrerequisites.Missing> missing =
                new ClusterPrerequisites(client).missing(ClusterPrerequisites.Needs.of(run.spec()));
        if (missing.isEmpty()) {
            return;
        }
        StringBuilder message =
                new StringBuilder("cluster " + cluster + " lacks what the run needs; nothing was created. ");
        for (int i = 0; i < missing.size(); i++) {
            var m = missing.get(i);
            message.append(i + 1)
                    .append(") missing ")
                    .append(m.what())
                    .append("; ")
                    .append(m.install())
                    .append(". ");
        }
        message.append(
                "Install it on the cluster (docs/deploying.md: Using an existing cluster), then start the run again.");
        throw new TerminalException(PREREQUISITES_MISSING, message.toString());
    }
}
