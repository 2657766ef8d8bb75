package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.trainplane.kubernetes.PyTorchJobs;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The Kubeflow PyTorchJob CRD for the simulated API server: the published one from
 * {@code ../shared/kubeflow/v1.9.4/} (or the file named by the system property
 * {@code trainplane.kubeflowCrd}) when it is there, else a minimal one with the same names, version
 * and status subresource.
 */
final class KubeflowCrd {
    static final Path PUBLISHED = Path.of("../shared/kubeflow/v1.9.4/kubeflow.org_pytorchjobs.yaml");

    private static CustomResourceDefinition cached;

    private KubeflowCrd() {}

    static CustomResourceDefinitionContext context() {
        return new CustomResourceDefinitionContext.Builder()
                .withGroup(PyTorchJobs.CONTEXT.getGroup())
                .withVersion(PyTorchJobs.CONTEXT.getVersion())
                .withPlural(PyTorchJobs.CONTEXT.getPlural())
                .withKind(PyTorchJobs.CONTEXT.getKind())
                .withScope("Namespaced")
                .withStatusSubresource(true)
                .build();
    }

    static synchronized CustomResourceDefinition definition() {
        if (cached == null) {
            Path file = Path.of(System.getProperty("trainplane.kubeflowCrd", PUBLISHED.toString()));
            cached = Files.isRegularFile(file) ? read(file) : minimal();
        }
        return new CustomResourceDefinitionBuilder(cached).build();
    }

    private static CustomResourceDefinition read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return Serialization.unmarshal(in, CustomResourceDefinition.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static CustomResourceDefinition minimal() {
        return new CustomResourceDefinitionBuilder()
                .withNewMetadata()
                .withName(PyTorchJobs.CRD_NAME)
                .endMetadata()
                .withNewSpec()
                .withGroup("kubeflow.org")
                .withScope("Namespaced")
                .withNewNames()
                .withKind("PyTorchJob")
                .withListKind("PyTorchJobList")
                .withPlural("pytorchjobs")
                .withSingular("pytorchjob")
                .endNames()
                .addNewVersion()
                .withName("v1")
                .withServed(true)
                .withStorage(true)
                .withNewSubresources()
                .withNewStatus()
                .endStatus()
                .endSubresources()
                .withNewSchema()
                .withNewOpenAPIV3Schema()
                .withType("object")
                .withXKubernetesPreserveUnknownFields(true)
                .endOpenAPIV3Schema()
                .endSchema()
                .endVersion()
                .endSpec()
                .build();
    }
}
