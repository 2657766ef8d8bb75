package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.trainplane.kubernetes.TrainingOperator;

/**
 * The Kubeflow job CRD an existing cluster with an operator has (the training operator's
 * PyTorchJob, the MPI operator's MPIJob): the one of the operator's release manifest that
 * Trainplane ships in its jar and installs on created clusters ({@link TrainingOperator}), so both
 * kinds of cluster serve the same schema.
 */
final class KubeflowCrd {
    private KubeflowCrd() {}

    /** A copy of the training operator's PyTorchJob CRD, for one cluster's API server to create. */
    static CustomResourceDefinition definition() {
        return definition(TrainingOperator.TRAINING);
    }

    /** A copy of {@code release}'s job CRD, for one cluster's API server to create. */
    static CustomResourceDefinition definition(TrainingOperator.Release release) {
        return TrainingOperator.objects(release).stream()
                .filter(o -> "CustomResourceDefinition".equals(o.getKind()))
                .filter(o -> release.crdName().equals(o.getMetadata().getName()))
                .findFirst()
                .map(KubeflowCrd::typed)
                .map(crd -> new CustomResourceDefinitionBuilder(crd).build())
                .orElseThrow(() -> new IllegalStateException(release.what() + "'s release manifest has no "
                        + release.crdName() + " (" + release.version() + ")"));
    }

    private static CustomResourceDefinition typed(GenericKubernetesResource crd) {
        return Serialization.unmarshal(Serialization.asJson(crd), CustomResourceDefinition.class);
    }
}
