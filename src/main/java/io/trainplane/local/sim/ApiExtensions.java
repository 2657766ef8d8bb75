package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionConditionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionStatusBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.List;

/**
 * The API server's apiextensions controller: a CRD whose names are accepted becomes
 * {@code Established}, and its resources are served
 * (https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#create-a-customresourcedefinition).
 * Here at the next reconcile after its creation; on a real cluster within a second.
 */
final class ApiExtensions {
    private ApiExtensions() {}

    static void establish(KubernetesClient client, List<String> created, Instant now) {
        for (String name : created) {
            CustomResourceDefinition crd = client.apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .withName(name)
                    .get();
            if (crd == null) {
                continue;
            }
            crd.setStatus(new CustomResourceDefinitionStatusBuilder()
                    .withAcceptedNames(crd.getSpec().getNames())
                    .withStoredVersions(crd.getSpec().getVersions().stream()
                            .filter(v -> Boolean.TRUE.equals(v.getStorage()))
                            .map(CustomResourceDefinitionVersion::getName)
                            .toList())
                    .addToConditions(condition("NamesAccepted", "NoConflicts", now))
                    .addToConditions(condition("Established", "InitialNamesAccepted", now))
                    .build());
            client.apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .resource(crd)
                    .updateStatus();
        }
    }

    private static io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionCondition condition(
            String type, String reason, Instant now) {
        return new CustomResourceDefinitionConditionBuilder()
                .withType(type)
                .withStatus("True")
                .withReason(reason)
                .withLastTransitionTime(now.toString())
                .build();
    }
}
