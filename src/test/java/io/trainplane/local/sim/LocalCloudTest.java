package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.trainplane.TestTime;
import io.trainplane.core.TerminalException;
import io.trainplane.local.Faults;
import io.trainplane.local.LocalCloud;
import io.trainplane.spec.Names;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.efs.model.EfsException;
import software.amazon.awssdk.services.efs.model.Tag;

/** The simulated services wired into one {@link LocalCloud}: the handlers' clients, faults, inventory. */
class LocalCloudTest {
    static LocalCloud cloud;

    @BeforeAll
    static void start() {
        cloud = new LocalCloud(
                TestTime.START,
                new Faults(Set.of(), Set.of(), Set.of("efs:DeleteFileSystem"), Set.of("eks:ListClusters")));
    }

    @AfterAll
    static void stop() {
        cloud.close();
    }

    @Test
    void theHandlersClientsAreTheSimulatedServicesOnOneClockLogAndFaultPlan() {
        var clients = cloud.clients();
        assertThat(clients.efs()).isSameAs(cloud.efs());
        assertThat(clients.cloudControl()).isSameAs(cloud.cloudControl());
        assertThat(clients.eks()).isSameAs(cloud.eks());

        // awsThrottles: the first ListClusters is throttled, the next one answers.
        assertThatThrownBy(() -> clients.eks().listClusters(r -> {}))
                .isInstanceOfSatisfying(AwsServiceException.class, e -> assertThat(e.isThrottlingException())
                        .isTrue());
        assertThat(clients.eks().listClusters(r -> {}).clusters()).contains(LocalCloud.DEMO_CLUSTER);
        // awsFailures: every DeleteFileSystem is refused.
        String fs = clients.efs()
                .createFileSystem(r -> r.creationToken("faults-test"))
                .fileSystemId();
        assertThatThrownBy(() -> clients.efs().deleteFileSystem(r -> r.fileSystemId(fs)))
                .isExactlyInstanceOf(EfsException.class);
        assertThat(cloud.calls().counts())
                .containsEntry("eks:ListClusters", 2)
                .containsEntry("efs:DeleteFileSystem", 1);
    }

    /** SimAccount's request at the version a cluster created on the cloud's day gets by default. */
    static software.amazon.awssdk.services.eks.model.CreateClusterRequest clusterOfTheDay(
            String name, String token, String runId) {
        return SimAccount.cluster(name, token, runId).toBuilder()
                .version(TestTime.kubernetesVersion())
                .build();
    }

    @Test
    void aCreatedClusterIsReachableThroughTheHandlersClusterAccessOnceActive() {
        cloud.eks().createCluster(clusterOfTheDay("tp-reach", "reach", "reach"));
        assertThatThrownBy(() -> cloud.clients().clusters().connect("tp-reach")).isInstanceOf(TerminalException.class);
        cloud.clock().advance(SimulatedEks.CLUSTER_CREATING);
        cloud.kubernetes("tp-reach")
                .admin()
                .namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName("reach")
                        .endMetadata()
                        .build())
                .create();
        var client = cloud.clients().clusters().connect("tp-reach");
        // The handler's path: DescribeCluster's endpoint and CA, a bearer token, fabric8 over HTTP.
        assertThat(client.namespaces().withName("reach").get()).isNotNull();
        assertThat(client.getMasterUrl().toString())
                .startsWith(cloud.kubernetes("tp-reach").endpoint());
    }

    @Test
    void inventoryJoinsEveryServicesRunResourcesWithKubernetesAndLeavesOutPreExistingClusters() {
        String run = "inventory-run";
        cloud.eks().createCluster(clusterOfTheDay("tp-inv", "inv", run));
        String fs = cloud.efs()
                .createFileSystem(r -> r.creationToken("inv")
                        .tags(Tag.builder().key(Names.RUN_ID_TAG).value(run).build()))
                .fileSystemId();
        cloud.cloudControl().createResource(r -> r.typeName("AWS::EC2::PlacementGroup")
                .desiredState("{\"GroupName\": \"tp-inv\", \"Tags\": [{\"Key\": \"trainplane:run-id\", \"Value\": \""
                        + run + "\"}]}"));
        cloud.kubernetes("tp-inv")
                .admin()
                .namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName("tp-inv")
                        .withLabels(Map.of(Names.RUN_ID_LABEL, run))
                        .endMetadata()
                        .build())
                .create();

        assertThat(cloud.inventory())
                .contains(
                        "eks:cluster/tp-inv",
                        "efs:file-system/" + fs,
                        "ec2:placement-group/tp-inv",
                        "kubernetes:Namespace/tp-inv")
                .isSorted()
                .noneMatch(ref -> ref.contains(LocalCloud.DEMO_CLUSTER));
        assertThat(cloud.awsResources())
                .extracting(CloudResource::ref)
                .contains("eks:cluster/" + LocalCloud.DEMO_CLUSTER);
    }
}
