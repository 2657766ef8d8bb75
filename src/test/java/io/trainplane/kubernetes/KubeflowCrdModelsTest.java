package io.trainplane.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.trainplane.Prerequisite;
import io.trainplane.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.kubeflow.v1.PyTorchJob;
import org.kubeflow.v2beta1.MPIJob;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The typed models of the Kubeflow jobs are generated from src/main/crds, which must be the CRDs
 * the run installs (inside the shipped operator manifests) and the ones published in
 * {@code ../shared/kubeflow}: a CRD updated in one place and not the others fails here.
 */
class KubeflowCrdModelsTest {
    static final Path SOURCES = Path.of("src/main/crds");

    static List<JsonNode> documents(InputStream in) {
        List<JsonNode> docs = new ArrayList<>();
        for (Object doc : new Yaml(new LoaderOptions()).loadAll(in)) {
            if (doc != null) {
                docs.add(Json.mapper().valueToTree(doc));
            }
        }
        return docs;
    }

    static JsonNode crd(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return documents(in).getFirst();
        }
    }

    /** The CRD named {@code name} inside a manifest shipped in the jar. */
    static JsonNode shipped(String resource, String name) throws IOException {
        try (InputStream in = WorkloadManifests.class.getResourceAsStream(resource)) {
            return documents(in).stream()
                    .filter(d -> d.path("kind").asText().equals("CustomResourceDefinition")
                            && d.at("/metadata/name").asText().equals(name))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(resource + " has no CRD " + name));
        }
    }

    @Test
    void theModelsSourcesAreTheShippedCrds() throws IOException {
        // The schema (spec) is what the models are made of; the shipped manifests add their own labels.
        assertThat(crd(SOURCES.resolve("kubeflow.org_pytorchjobs.yaml")).path("spec"))
                .isEqualTo(
                        shipped("kubeflow/training-operator-v1.9.4/training-operator.yaml", "pytorchjobs.kubeflow.org")
                                .path("spec"));
        assertThat(crd(SOURCES.resolve("kubeflow.org_mpijobs.yaml")).path("spec"))
                .isEqualTo(shipped("kubeflow/mpi-operator-v0.8.2/mpi-operator.yaml", "mpijobs.kubeflow.org")
                        .path("spec"));
    }

    @Test
    void theModelsSourcesAreThePublishedCrds() throws IOException {
        Prerequisite.require(Files.isDirectory(KubeflowCrds.FOLDER), "../shared/kubeflow is not beside the checkout");
        for (Path published : KubeflowCrds.CRDS) {
            assertThat(crd(SOURCES.resolve(published.getFileName())))
                    .as(published.toString())
                    .isEqualTo(crd(published));
        }
    }

    @Test
    void theModelsAreOfTheKindsAndVersionsTheRunCreates() {
        assertThat(HasMetadata.getApiVersion(PyTorchJob.class)).isEqualTo(PyTorchJobManifest.API_VERSION);
        assertThat(HasMetadata.getKind(PyTorchJob.class)).isEqualTo(PyTorchJobManifest.KIND);
        assertThat(HasMetadata.getApiVersion(MPIJob.class)).isEqualTo(MpiJobManifest.API_VERSION);
        assertThat(HasMetadata.getKind(MPIJob.class)).isEqualTo(MpiJobManifest.KIND);
    }
}
