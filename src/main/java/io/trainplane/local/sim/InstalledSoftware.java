package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionConditionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionStatusBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentConditionBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.Objects;

/**
 * The control plane's part in software a run installs (the Kubeflow training operator): the
 * apiextensions controller marks a CRD {@code Established} once its names are accepted
 * (https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#create-a-customresourcedefinition),
 * and the Deployment controller reports a Deployment {@code Available} once its replicas are
 * (https://kubernetes.io/docs/concepts/workloads/controllers/deployment/#deployment-status).
 *
 * <p>More lenient than EKS: a Deployment is available at the next reconcile, whether or not its
 * pods could be scheduled (this simulator has no scheduler yet; one that places the pods on
 * nodes and honours taints replaces this).
 */
public final class InstalledSoftware {
    private final KubernetesClient client;

    public InstalledSoftware(KubernetesClient client) {
        this.client = client;
    }

    public void reconcile(Instant now) {
        java.util.List<Deployment> rollingOut = client.apps().deployments().inAnyNamespace().list().getItems().stream()
                .filter(d -> !available(d))
                .toList();
        if (rollingOut.isEmpty()) {
            // CRDs are large (the training operator's six are 3.7 MB): listed only while something
            // is being installed, which is when they are created.
            return;
        }
        for (CustomResourceDefinition crd :
                client.apiextensions().v1().customResourceDefinitions().list().getItems()) {
            if (!established(crd)) {
                crd.setStatus(new CustomResourceDefinitionStatusBuilder()
                        .withAcceptedNames(crd.getSpec().getNames())
                        .withStoredVersions(crd.getSpec().getVersions().stream()
                                .filter(v -> Boolean.TRUE.equals(v.getStorage()))
                                .map(v -> v.getName())
                                .toList())
                        .addToConditions(new CustomResourceDefinitionConditionBuilder()
                                .withType("NamesAccepted")
                                .withStatus("True")
                                .withReason("NoConflicts")
                                .withLastTransitionTime(now.toString())
                                .build())
                        .addToConditions(new CustomResourceDefinitionConditionBuilder()
                                .withType("Established")
                                .withStatus("True")
                                .withReason("InitialNamesAccepted")
                                .withLastTransitionTime(now.toString())
                                .build())
                        .build());
                client.apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .resource(crd)
                        .updateStatus();
            }
        }
        for (Deployment deployment : rollingOut) {
            int replicas = Objects.requireNonNullElse(deployment.getSpec().getReplicas(), 1);
            deployment.setStatus(new DeploymentStatusBuilder()
                    .withObservedGeneration(deployment.getMetadata().getGeneration())
                    .withReplicas(replicas)
                    .withReadyReplicas(replicas)
                    .withAvailableReplicas(replicas)
                    .withUpdatedReplicas(replicas)
                    .addToConditions(new DeploymentConditionBuilder()
                            .withType("Available")
                            .withStatus("True")
                            .withReason("MinimumReplicasAvailable")
                            .withMessage("Deployment has minimum availability.")
                            .withLastTransitionTime(now.toString())
                            .build())
                    .build());
            client.apps().deployments().resource(deployment).updateStatus();
        }
    }

    private static boolean available(Deployment deployment) {
        return deployment.getStatus() != null
                && deployment.getStatus().getConditions() != null
                && deployment.getStatus().getConditions().stream()
                        .anyMatch(c -> "Available".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static boolean established(CustomResourceDefinition crd) {
        return crd.getStatus() != null
                && crd.getStatus().getConditions() != null
                && crd.getStatus().getConditions().stream()
                        .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
    }
}
