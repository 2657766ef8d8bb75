package io.trainplane.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionConditionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionStatusBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentConditionBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.trainplane.Prerequisite;
import io.trainplane.aws.ResourceState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The training operator from the release manifest in the jar: the file is the published one, every
 * object of it is created on a bare API server in an order the server accepts, a second pass (or
 * a cluster that has part of it) adopts what is there, and readiness follows the CRD's and the
 * Deployment's status as the control plane writes them.
 */
class TrainingOperatorTest {
    static final Path PUBLISHED = Path.of("../shared/kubeflow/v1.9.4/training-operator.yaml");

    final CrudApiServer server = new CrudApiServer();
    final KubernetesClient api = server.client;

    @AfterEach
    void close() {
        server.close();
    }

    @Test
    void theManifestInTheJarIsTheReleasesFileByteForByte() throws IOException {
        boolean present = Files.isRegularFile(PUBLISHED);
        Prerequisite.require(present, PUBLISHED + " (the published release) is not beside this clone");

        assertThat(TrainingOperator.manifestBytes()).isEqualTo(Files.readAllBytes(PUBLISHED));
    }

    @Test
    void theNamespaceAndTheCrdsComeFirstAndEveryKindIsMapped() {
        List<GenericKubernetesResource> objects = TrainingOperator.objects();

        assertThat(objects).hasSize(14);
        assertThat(objects.get(0).getKind()).isEqualTo("Namespace");
        assertThat(objects.subList(1, 7)).allMatch(o -> o.getKind().equals("CustomResourceDefinition"));
        assertThat(objects.subList(7, objects.size()))
                .noneMatch(o -> o.getKind().equals("CustomResourceDefinition"));
        assertThat(objects).extracting(o -> o.getMetadata().getName()).contains(PyTorchJobs.CRD_NAME);
        assertThat(objects).allMatch(o -> TrainingOperator.KINDS.containsKey(o.getKind()));
        assertThat(objects)
                .filteredOn(o -> TrainingOperator.KINDS.get(o.getKind()).isNamespaceScoped())
                .allMatch(o -> TrainingOperator.NAMESPACE.equals(o.getMetadata().getNamespace()));
    }

    @Test
    void onABareClusterItCreatesEveryObjectAndWaitsForTheControlPlane() {
        TrainingOperator operator = new TrainingOperator(api);
        assertThat(operator.state()).isInstanceOf(ResourceState.Gone.class);

        assertThat(operator.ensure())
                .isEqualTo(new ResourceState.Creating("the CRD pytorchjobs.kubeflow.org is not Established yet"));

        assertThat(api.apiextensions().v1().customResourceDefinitions().list().getItems())
                .extracting(c -> c.getMetadata().getName())
                .containsExactlyInAnyOrder(
                        "jaxjobs.kubeflow.org",
                        "mpijobs.kubeflow.org",
                        "paddlejobs.kubeflow.org",
                        "pytorchjobs.kubeflow.org",
                        "tfjobs.kubeflow.org",
                        "xgboostjobs.kubeflow.org");
        assertThat(api.namespaces().withName("kubeflow").get()).isNotNull();
        assertThat(api.serviceAccounts()
                        .inNamespace("kubeflow")
                        .withName("training-operator")
                        .get())
                .isNotNull();
        assertThat(api.rbac().clusterRoles().withName("training-operator").get())
                .isNotNull();
        assertThat(api.rbac()
                        .clusterRoleBindings()
                        .withName("training-operator")
                        .get())
                .isNotNull();
        assertThat(api.secrets()
                        .inNamespace("kubeflow")
                        .withName("training-operator-webhook-cert")
                        .get())
                .isNotNull();
        assertThat(api.services()
                        .inNamespace("kubeflow")
                        .withName("training-operator")
                        .get())
                .isNotNull();
        Deployment deployment = api.apps()
                .deployments()
                .inNamespace("kubeflow")
                .withName("training-operator")
                .get();
        assertThat(deployment
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getImage())
                .isEqualTo("ghcr.io/kubeflow/training-v1/training-operator:v1-93c5489");
        assertThat(api.genericKubernetesResources(TrainingOperator.KINDS.get("ValidatingWebhookConfiguration"))
                        .withName("validator.training-operator.kubeflow.org")
                        .get())
                .isNotNull();

        establish(PyTorchJobs.CRD_NAME);
        assertThat(operator.state())
                .isEqualTo(new ResourceState.Creating(
                        "the Deployment kubeflow/training-operator has no available replica yet"));

        deploymentCondition("Available", "True", "MinimumReplicasAvailable", "Deployment has minimum availability.");
        assertThat(operator.ensure()).isInstanceOf(ResourceState.Ready.class);
    }

    @Test
    void aClusterThatHasPartOfItIsCompletedAndWhatIsThereAdopted() {
        // As the shared API server of local mode has it: the PyTorchJob CRD installed before the run.
        GenericKubernetesResource crd = TrainingOperator.objects().stream()
                .filter(o -> o.getMetadata().getName().equals(PyTorchJobs.CRD_NAME))
                .findFirst()
                .orElseThrow();
        api.genericKubernetesResources(TrainingOperator.KINDS.get("CustomResourceDefinition"))
                .resource(crd)
                .create();
        String before = api.apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName(PyTorchJobs.CRD_NAME)
                .get()
                .getMetadata()
                .getResourceVersion();

        new TrainingOperator(api).ensure();
        new TrainingOperator(api).ensure();

        assertThat(api.apiextensions()
                        .v1()
                        .customResourceDefinitions()
                        .withName(PyTorchJobs.CRD_NAME)
                        .get()
                        .getMetadata()
                        .getResourceVersion())
                .as("adopted as it was")
                .isEqualTo(before);
        assertThat(api.apps().deployments().inNamespace("kubeflow").list().getItems())
                .singleElement();
    }

    @Test
    void aRolloutPastItsDeadlineFailsWithTheControllersMessage() {
        TrainingOperator operator = new TrainingOperator(api);
        operator.ensure();
        establish(PyTorchJobs.CRD_NAME);
        String message = "ReplicaSet \"training-operator-6d8f7c\" has timed out progressing.";
        deploymentCondition("Progressing", "False", "ProgressDeadlineExceeded", message);

        assertThat(operator.state()).isInstanceOfSatisfying(ResourceState.Failed.class, f -> assertThat(f.reason())
                .contains(message)
                .contains("kubectl -n kubeflow describe pods -l control-plane=kubeflow-training-operator"));
    }

    void establish(String name) {
        CustomResourceDefinition crd = api.apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName(name)
                .get();
        crd.setStatus(new CustomResourceDefinitionStatusBuilder()
                .addToConditions(new CustomResourceDefinitionConditionBuilder()
                        .withType("Established")
                        .withStatus("True")
                        .withReason("InitialNamesAccepted")
                        .build())
                .build());
        api.apiextensions().v1().customResourceDefinitions().resource(crd).updateStatus();
    }

    void deploymentCondition(String type, String status, String reason, String message) {
        Deployment deployment = api.apps()
                .deployments()
                .inNamespace("kubeflow")
                .withName("training-operator")
                .get();
        deployment.setStatus(new DeploymentStatusBuilder()
                .addToConditions(new DeploymentConditionBuilder()
                        .withType(type)
                        .withStatus(status)
                        .withReason(reason)
                        .withMessage(message)
                        .build())
                .build());
        api.apps().deployments().resource(deployment).updateStatus();
    }
}
