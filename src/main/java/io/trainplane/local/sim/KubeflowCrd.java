package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.trainplane.kubernetes.PyTorchJobs;
import io.trainplane.kubernetes.TrainingOperator;

/**
 * The Kubeflow PyTorchJob CRD an existing cluster with the training operator has: the one of the
 * operator's release manifest that Trainplane ships in its jar and installs on created clusters
 * ({@link TrainingOperator}), so both kinds of cluster serve the same schema.
 */
final class KubeflowCrd {
    private static final CustomResourceDefinition PUBLISHED = TrainingOperator.objects().stream()
            .filter(o -> "CustomResourceDefinition".equals(o.getKind()))
            .filter(o -> PyTorchJobs.CRD_NAME.equals(o.getMetadata().getName()))
            .findFirst()
            .map(KubeflowCrd::typed)
            .orElseThrow(() -> new IllegalStateException("the training operator's release manifest has no "
                    + PyTorchJobs.CRD_NAME + " (" + TrainingOperator.VERSION + ")"));

    private KubeflowCrd() {}

    /** A copy of the CRD, for one cluster's API server to create. */
    static CustomResourceDefinition definition() {
        return new CustomResourceDefinitionBuilder(PUBLISHED).build();
    }

    private static CustomResourceDefinition typed(GenericKubernetesResource crd) {
        return Serialization.unmarshal(Serialization.asJson(crd), CustomResourceDefinition.class);
    }
}
