package io.trainplane.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionConditionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionStatusBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentConditionBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.trainplane.Prerequisite;
import io.trainplane.aws.ResourceState;
import io.trainplane.kubernetes.ClusterPrerequisites.Needs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The MPI operator from the release manifest in the jar: the published file, its objects created
 * on a bare API server and ready once the control plane says so; on an existing cluster, MPIJobs
 * need its v2beta1 CRD, which the training operator's CRD of the same name does not serve.
 */
class MpiOperatorTest {
    static final Path PUBLISHED = Path.of("../shared/kubeflow/mpi-operator-v0.8.2/mpi-operator.yaml");

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

        assertThat(TrainingOperator.manifestBytes(TrainingOperator.MPI)).isEqualTo(Files.readAllBytes(PUBLISHED));
    }

    @Test
    void onABareClusterItCreatesEveryObjectAndIsReadyWithTheCrdAndTheDeployment() {
        List<GenericKubernetesResource> objects = TrainingOperator.objects(TrainingOperator.MPI);
        assertThat(objects.get(0).getKind()).isEqualTo("Namespace");
        assertThat(objects.get(1).getMetadata().getName()).isEqualTo(MpiJobs.CRD_NAME);
        TrainingOperator operator = new TrainingOperator(api, TrainingOperator.MPI);
        assertThat(operator.state()).isInstanceOf(ResourceState.Gone.class);

        assertThat(operator.ensure())
                .isEqualTo(new ResourceState.Creating("the CRD mpijobs.kubeflow.org is not Established yet"));
        assertThat(api.rbac().clusterRoles().withName("mpi-operator").get()).isNotNull();
        assertThat(api.serviceAccounts()
                        .inNamespace("mpi-operator")
                        .withName("mpi-operator")
                        .get())
                .isNotNull();

        var crd = api.apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName(MpiJobs.CRD_NAME)
                .get();
        crd.setStatus(new CustomResourceDefinitionStatusBuilder()
                .addToConditions(new CustomResourceDefinitionConditionBuilder()
                        .withType("Established")
                        .withStatus("True")
                        .build())
                .build());
        api.apiextensions().v1().customResourceDefinitions().resource(crd).updateStatus();
        assertThat(operator.state())
                .isEqualTo(new ResourceState.Creating(
                        "the Deployment mpi-operator/mpi-operator has no available replica yet"));

        var deployment = api.apps()
                .deployments()
                .inNamespace("mpi-operator")
                .withName("mpi-operator")
                .get();
        deployment.setStatus(new DeploymentStatusBuilder()
                .addToConditions(new DeploymentConditionBuilder()
                        .withType("Available")
                        .withStatus("True")
                        .build())
                .build());
        api.apps()
                .deployments()
                .inNamespace("mpi-operator")
                .resource(deployment)
                .updateStatus();
        assertThat(operator.ensure()).isInstanceOf(ResourceState.Ready.class);
        assertThat(MpiJobs.operatorInstalled(api)).isTrue();
        assertThat(new ClusterPrerequisites(api).missing(new Needs(false, false, 0, false, true, false)))
                .isEmpty();
    }

    @Test
    void anExistingClusterWithoutItOrWithOnlyTheTrainingOperatorsMpiJobIsRefused() {
        Needs mpiJob = new Needs(false, false, 0, false, true, false);
        assertThat(new ClusterPrerequisites(api).missing(mpiJob))
                .singleElement()
                .satisfies(m -> {
                    assertThat(m.what()).contains("the CRD mpijobs.kubeflow.org", "MPI operator is not installed");
                    assertThat(m.install()).contains("v0.8.2", "deploy/v2beta1/mpi-operator.yaml");
                });

        // The training operator v1.9.4 installs an mpijobs.kubeflow.org of its own: kubeflow.org/v1 only.
        new TrainingOperator(api).ensure();
        assertThat(MpiJobs.operatorInstalled(api)).isFalse();
        assertThat(new ClusterPrerequisites(api).missing(mpiJob))
                .singleElement()
                .satisfies(m -> {
                    assertThat(m.what()).contains("serving kubeflow.org/v2beta1", "the training operator's");
                    assertThat(m.install()).contains("training.launcher \"pytorchjob\"");
                });
    }
}
