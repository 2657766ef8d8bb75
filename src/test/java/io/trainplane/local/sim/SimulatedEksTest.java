package io.trainplane.local.sim;

import static io.trainplane.local.sim.SimAccount.SUBNETS;
import static io.trainplane.local.sim.SimAccount.cluster;
import static io.trainplane.local.sim.SimAccount.nodegroup;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.eks.model.AddonStatus;
import software.amazon.awssdk.services.eks.model.AuthenticationMode;
import software.amazon.awssdk.services.eks.model.Cluster;
import software.amazon.awssdk.services.eks.model.ClusterStatus;
import software.amazon.awssdk.services.eks.model.InvalidParameterException;
import software.amazon.awssdk.services.eks.model.InvalidRequestException;
import software.amazon.awssdk.services.eks.model.LogType;
import software.amazon.awssdk.services.eks.model.NodegroupStatus;
import software.amazon.awssdk.services.eks.model.NotFoundException;
import software.amazon.awssdk.services.eks.model.ResourceInUseException;
import software.amazon.awssdk.services.eks.model.ResourceLimitExceededException;
import software.amazon.awssdk.services.eks.model.ResourceNotFoundException;

class SimulatedEksTest {
    final SimAccount sim = new SimAccount();

    Cluster describe(String name) {
        return sim.eks.describeCluster(r -> r.name(name)).cluster();
    }

    void activeCluster(String name) {
        sim.eks.createCluster(cluster(name, "tok-" + name, "run-1"));
        sim.advance(SimulatedEks.CLUSTER_CREATING);
    }

    @Test
    void clusterIsCreatingForTenMinutesThenActiveWithEndpointCaAndSecurityGroup() throws CertificateException {
        Cluster created =
                sim.eks.createCluster(cluster("tp-run-1", "tok-1", "run-1")).cluster();
        assertThat(created.status()).isEqualTo(ClusterStatus.CREATING);
        assertThat(created.endpoint()).isNull();
        assertThat(created.certificateAuthority()).isNull();

        sim.at(Duration.ofMinutes(10).minusSeconds(1));
        assertThat(describe("tp-run-1").status()).isEqualTo(ClusterStatus.CREATING);

        sim.at(Duration.ofMinutes(10));
        Cluster active = describe("tp-run-1");
        assertThat(active.status()).isEqualTo(ClusterStatus.ACTIVE);
        assertThat(active.endpoint()).isEqualTo(SimAccount.ENDPOINT);
        var ca = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(
                        Base64.getDecoder().decode(active.certificateAuthority().data())));
        assertThat(ca.getSubjectX500Principal().getName()).isEqualTo("CN=kubernetes");
        assertThat(active.resourcesVpcConfig().clusterSecurityGroupId()).matches("sg-[0-9a-f]{17}");
        assertThat(active.resourcesVpcConfig().subnetIds()).isEqualTo(SUBNETS);
        assertThat(active.resourcesVpcConfig().securityGroupIds()).containsExactly("sg-0control");
        assertThat(active.accessConfig().authenticationMode()).isEqualTo(AuthenticationMode.API_AND_CONFIG_MAP);
        assertThat(active.logging().clusterLogging().get(0).types()).containsExactly(LogType.API, LogType.AUDIT);
        assertThat(active.tags()).containsEntry("trainplane:run-id", "run-1");
        assertThat(active.createdAt()).isEqualTo(SimAccount.START);
        assertThat(active.arn()).isEqualTo("arn:aws:eks:us-east-1:000000000000:cluster/tp-run-1");
    }

    @Test
    void deletedClusterIsDeletingForFourMinutesThenGone() {
        activeCluster("c1");
        assertThat(sim.eks.deleteCluster(r -> r.name("c1")).cluster().status()).isEqualTo(ClusterStatus.DELETING);

        sim.advance(SimulatedEks.CLUSTER_DELETING.minusSeconds(1));
        assertThat(describe("c1").status()).isEqualTo(ClusterStatus.DELETING);
        assertThat(sim.eks.listClusters(r -> {}).clusters()).containsExactly("c1");

        sim.advance(Duration.ofSeconds(1));
        assertThatThrownBy(() -> describe("c1"))
                .isInstanceOf(ResourceNotFoundException.class)
                .hasMessageStartingWith("No cluster found for name: c1.")
                .satisfies(e ->
                        assertThat(((ResourceNotFoundException) e).statusCode()).isEqualTo(404));
        assertThat(sim.eks.listClusters(r -> {}).clusters()).isEmpty();
    }

    @Test
    void threeCreatesWithOneTokenMakeOneCluster() {
        for (int i = 0; i < 3; i++) {
            sim.eks.createCluster(cluster("c1", "token-a", "run-1"));
            sim.advance(Duration.ofMinutes(1));
        }
        assertThat(sim.eks.listClusters(r -> {}).clusters()).containsExactly("c1");
        assertThat(sim.count("eks:CreateCluster")).isEqualTo(3);
        // The retried creates did not restart the clock of the first: ACTIVE ten minutes after it.
        sim.at(Duration.ofMinutes(10));
        assertThat(describe("c1").status()).isEqualTo(ClusterStatus.ACTIVE);
    }

    @Test
    void sameNameWithAnotherTokenOrNoTokenIsResourceInUse() {
        sim.eks.createCluster(cluster("c1", "token-a", "run-1"));
        assertThatThrownBy(() -> sim.eks.createCluster(cluster("c1", "token-b", "run-1")))
                .isInstanceOf(ResourceInUseException.class)
                .hasMessageStartingWith("Cluster already exists with name: c1")
                .satisfies(e ->
                        assertThat(((ResourceInUseException) e).statusCode()).isEqualTo(409));
        assertThatThrownBy(() -> sim.eks.createCluster(cluster("c1", null, "run-1")))
                .isInstanceOf(ResourceInUseException.class);
        // Same token, different request: not a retry either.
        assertThatThrownBy(() -> sim.eks.createCluster(cluster("c1", "token-a", "run-2")))
                .isInstanceOf(ResourceInUseException.class);
    }

    @Test
    void nodegroupNeedsAnActiveClusterAndTakesFourMinutes() {
        sim.eks.createCluster(cluster("c1", "t", "run-1"));
        assertThatThrownBy(() -> sim.eks.createNodegroup(nodegroup("c1", "ng", "n", "run-1")))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageStartingWith("Cluster 'c1' is not in ACTIVE status");
        assertThatThrownBy(() -> sim.eks.createNodegroup(nodegroup("nope", "ng", "n", "run-1")))
                .isInstanceOf(ResourceNotFoundException.class)
                .hasMessageStartingWith("No cluster found for name: nope.");

        sim.at(SimulatedEks.CLUSTER_CREATING);
        var ng = sim.eks.createNodegroup(nodegroup("c1", "ng", "n", "run-1")).nodegroup();
        assertThat(ng.status()).isEqualTo(NodegroupStatus.CREATING);
        assertThat(ng.version()).isEqualTo("1.31");
        assertThat(ng.scalingConfig().desiredSize()).isEqualTo(2);

        sim.advance(SimulatedEks.NODEGROUP_CREATING.minusSeconds(1));
        assertThat(sim.eks
                        .describeNodegroup(r -> r.clusterName("c1").nodegroupName("ng"))
                        .nodegroup()
                        .status())
                .isEqualTo(NodegroupStatus.CREATING);
        sim.advance(Duration.ofSeconds(1));
        var active = sim.eks
                .describeNodegroup(r -> r.clusterName("c1").nodegroupName("ng"))
                .nodegroup();
        assertThat(active.status()).isEqualTo(NodegroupStatus.ACTIVE);
        assertThat(active.resources().autoScalingGroups()).hasSize(1);
        assertThat(sim.eks.listNodegroups(r -> r.clusterName("c1")).nodegroups())
                .containsExactly("ng");
    }

    @Test
    void lifetimesTellWhenEachClusterAndNodegroupWasActiveAndWillBeGone() {
        var t0 = sim.clock.instant();
        sim.eks.createCluster(cluster("c1", "t", "run-1"));
        sim.at(SimulatedEks.CLUSTER_CREATING);
        sim.eks.createNodegroup(nodegroup("c1", "ng", "n", "run-1"));
        sim.advance(SimulatedEks.NODEGROUP_CREATING.plusMinutes(5));
        sim.eks.deleteNodegroup(r -> r.clusterName("c1").nodegroupName("ng"));

        var lifetimes = sim.eks.lifetimes();
        var c1 = lifetimes.stream()
                .filter(l -> l.nodegroup() == null)
                .findFirst()
                .orElseThrow();
        var ng = lifetimes.stream()
                .filter(l -> "ng".equals(l.nodegroup()))
                .findFirst()
                .orElseThrow();
        assertThat(c1.created()).isEqualTo(t0);
        assertThat(c1.active()).isEqualTo(t0.plus(SimulatedEks.CLUSTER_CREATING));
        assertThat(c1.gone()).isNull();
        assertThat(ng.instanceType()).isEqualTo("g5.12xlarge");
        assertThat(ng.nodes()).isEqualTo(2);
        assertThat(ng.active()).isEqualTo(c1.active().plus(SimulatedEks.NODEGROUP_CREATING));
        assertThat(ng.deleteRequested()).isEqualTo(ng.active().plusSeconds(300));
        assertThat(ng.gone()).isEqualTo(ng.deleteRequested().plus(SimulatedEks.NODEGROUP_DELETING));
    }

    @Test
    void nodegroupCreateIsIdempotentByTokenAndConflictsOtherwise() {
        activeCluster("c1");
        for (int i = 0; i < 3; i++) {
            sim.eks.createNodegroup(nodegroup("c1", "ng", "same", "run-1"));
        }
        assertThat(sim.eks.listNodegroups(r -> r.clusterName("c1")).nodegroups())
                .containsExactly("ng");
        assertThatThrownBy(() -> sim.eks.createNodegroup(nodegroup("c1", "ng", "other", "run-1")))
                .isInstanceOf(ResourceInUseException.class)
                .hasMessageStartingWith("NodeGroup already exists with name ng and cluster name c1");
    }

    @Test
    void clusterCannotBeDeletedUntilItsNodegroupsAreGone() {
        activeCluster("c1");
        sim.eks.createNodegroup(nodegroup("c1", "ng", "n", "run-1"));
        sim.advance(SimulatedEks.NODEGROUP_CREATING);

        assertThatThrownBy(() -> sim.eks.deleteCluster(r -> r.name("c1")))
                .isInstanceOf(ResourceInUseException.class)
                .hasMessageStartingWith("Cluster has nodegroups attached")
                .satisfies(e ->
                        assertThat(((ResourceInUseException) e).nodegroupName()).isEqualTo("ng"));

        var deleting = sim.eks
                .deleteNodegroup(r -> r.clusterName("c1").nodegroupName("ng"))
                .nodegroup();
        assertThat(deleting.status()).isEqualTo(NodegroupStatus.DELETING);
        sim.advance(SimulatedEks.NODEGROUP_DELETING.minusSeconds(1));
        assertThatThrownBy(() -> sim.eks.deleteCluster(r -> r.name("c1"))).isInstanceOf(ResourceInUseException.class);

        sim.advance(Duration.ofSeconds(1));
        assertThatThrownBy(
                        () -> sim.eks.describeNodegroup(r -> r.clusterName("c1").nodegroupName("ng")))
                .isInstanceOf(ResourceNotFoundException.class)
                .hasMessageStartingWith("No node group found for name: ng.");
        assertThat(sim.eks.deleteCluster(r -> r.name("c1")).cluster().status()).isEqualTo(ClusterStatus.DELETING);
    }

    @Test
    void unknownResourcesAreNotFound() {
        assertThatThrownBy(() -> sim.eks.deleteCluster(r -> r.name("ghost")))
                .isInstanceOf(ResourceNotFoundException.class);
        activeCluster("c1");
        assertThatThrownBy(
                        () -> sim.eks.deleteNodegroup(r -> r.clusterName("c1").nodegroupName("ghost")))
                .isInstanceOf(ResourceNotFoundException.class);
        assertThatThrownBy(() -> sim.eks.describeAddon(r -> r.clusterName("c1").addonName("ghost")))
                .isInstanceOf(ResourceNotFoundException.class)
                .hasMessageStartingWith("No addon: ghost found in cluster: c1");
        assertThatThrownBy(() -> sim.eks.deleteAddon(r -> r.clusterName("c1").addonName("ghost")))
                .isInstanceOf(ResourceNotFoundException.class);
        assertThatThrownBy(() -> sim.eks.listTagsForResource(
                        r -> r.resourceArn("arn:aws:eks:us-east-1:000000000000:cluster/ghost")))
                .isInstanceOf(NotFoundException.class);
    }

    @Test
    void clusterQuotaIsEnforced() {
        sim.eks.setClusterLimit(2);
        sim.eks.createCluster(cluster("c1", "t1", "run-1"));
        sim.eks.createCluster(cluster("c2", "t2", "run-1"));
        assertThatThrownBy(() -> sim.eks.createCluster(cluster("c3", "t3", "run-1")))
                .isInstanceOf(ResourceLimitExceededException.class)
                .satisfies(e -> assertThat(((ResourceLimitExceededException) e).statusCode())
                        .isEqualTo(400));
        // A retry of an accepted create is not a new cluster: the quota does not refuse it.
        assertThat(sim.eks.createCluster(cluster("c2", "t2", "run-1")).cluster().name())
                .isEqualTo("c2");
    }

    @Test
    void defaultQuotaIsOneHundredClusters() {
        for (int i = 0; i < SimulatedEks.DEFAULT_CLUSTER_LIMIT; i++) {
            sim.eks.createCluster(cluster("c" + i, null, null));
        }
        assertThatThrownBy(() -> sim.eks.createCluster(cluster("one-too-many", null, null)))
                .isInstanceOf(ResourceLimitExceededException.class);
        var firstPage = sim.eks.listClusters(r -> r.maxResults(60));
        assertThat(firstPage.clusters()).hasSize(60);
        assertThat(sim.eks.listClusters(r -> r.nextToken(firstPage.nextToken())).clusters())
                .hasSize(40);
        assertThat(sim.eks.listClustersPaginator(r -> {}).clusters().stream().count())
                .isEqualTo(100);
    }

    @Test
    void requestsEksWouldRejectAreInvalidParameters() {
        assertThatThrownBy(() -> sim.eks.createCluster(cluster("c1", "t", "r").toBuilder()
                        .resourcesVpcConfig(v -> v.subnetIds("subnet-only-one"))
                        .build()))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("at least two different AZs");
        assertThatThrownBy(() -> sim.eks.createCluster(cluster("bad name!", "t", "r")))
                .isInstanceOf(InvalidParameterException.class);
        assertThat(sim.eks.listClusters(r -> {}).clusters()).isEmpty();
    }

    @Test
    void addonTakesAMinuteAndRecordsItsPodIdentityAssociations() {
        activeCluster("c1");
        assertThatThrownBy(() -> sim.eks.createAddon(r -> r.clusterName("ghost").addonName("aws-efs-csi-driver")))
                .isInstanceOf(ResourceNotFoundException.class);
        var addon = sim.eks
                .createAddon(r -> r.clusterName("c1")
                        .addonName("aws-efs-csi-driver")
                        .clientRequestToken("a")
                        .podIdentityAssociations(p -> p.serviceAccount("efs-csi-controller-sa")
                                .roleArn("arn:aws:iam::000000000000:role/efs-csi"))
                        .tags(Map.of("trainplane:run-id", "run-1")))
                .addon();
        assertThat(addon.status()).isEqualTo(AddonStatus.CREATING);
        assertThat(addon.podIdentityAssociations())
                .hasSize(1)
                .allMatch(a -> a.startsWith("arn:aws:eks:us-east-1:000000000000:podidentityassociation/c1/a-"));

        sim.advance(SimulatedEks.ADDON_CREATING.minusSeconds(1));
        assertThat(sim.eks
                        .describeAddon(r -> r.clusterName("c1").addonName("aws-efs-csi-driver"))
                        .addon()
                        .status())
                .isEqualTo(AddonStatus.CREATING);
        sim.advance(Duration.ofSeconds(1));
        assertThat(sim.eks
                        .describeAddon(r -> r.clusterName("c1").addonName("aws-efs-csi-driver"))
                        .addon()
                        .status())
                .isEqualTo(AddonStatus.ACTIVE);

        assertThat(sim.eks.podIdentityAssociations()).singleElement().satisfies(p -> {
            assertThat(p.serviceAccount()).isEqualTo("efs-csi-controller-sa");
            assertThat(p.roleArn()).isEqualTo("arn:aws:iam::000000000000:role/efs-csi");
            assertThat(p.namespace()).isEqualTo("kube-system");
            assertThat(p.associationArn())
                    .isEqualTo(addon.podIdentityAssociations().get(0));
        });
        assertThat(sim.eks
                        .listPodIdentityAssociations(r -> r.clusterName("c1").serviceAccount("efs-csi-controller-sa"))
                        .associations())
                .hasSize(1);
        assertThat(sim.eks.listAddons(r -> r.clusterName("c1")).addons()).containsExactly("aws-efs-csi-driver");
        assertThatThrownBy(() -> sim.eks.createAddon(
                        r -> r.clusterName("c1").addonName("aws-efs-csi-driver").clientRequestToken("b")))
                .isInstanceOf(ResourceInUseException.class);
    }

    @Test
    void addonNeedsAnActiveClusterAndGoesWithIt() {
        sim.eks.createCluster(cluster("c1", "t", "run-1"));
        assertThatThrownBy(() -> sim.eks.createAddon(r -> r.clusterName("c1").addonName("vpc-cni")))
                .isInstanceOf(InvalidRequestException.class);
        sim.advance(SimulatedEks.CLUSTER_CREATING);
        sim.eks.createAddon(r -> r.clusterName("c1").addonName("vpc-cni"));
        sim.eks.deleteCluster(r -> r.name("c1"));
        sim.advance(SimulatedEks.CLUSTER_DELETING);
        assertThat(sim.eks.resources()).isEmpty();
    }

    @Test
    void tagsAreSetListedAndRemovedByArn() {
        activeCluster("c1");
        String arn = describe("c1").arn();
        sim.eks.tagResource(r -> r.resourceArn(arn).tags(Map.of("team", "ml")));
        assertThat(sim.eks.listTagsForResource(r -> r.resourceArn(arn)).tags())
                .containsExactlyInAnyOrderEntriesOf(Map.of("team", "ml", "trainplane:run-id", "run-1"));
        sim.eks.untagResource(r -> r.resourceArn(arn).tagKeys("team"));
        assertThat(sim.eks.listTagsForResource(r -> r.resourceArn(arn)).tags()).containsOnlyKeys("trainplane:run-id");

        sim.eks.createNodegroup(nodegroup("c1", "ng", "n", null));
        String ngArn = sim.eks
                .describeNodegroup(r -> r.clusterName("c1").nodegroupName("ng"))
                .nodegroup()
                .nodegroupArn();
        sim.eks.tagResource(r -> r.resourceArn(ngArn).tags(Map.of("trainplane:run-id", "run-9")));
        assertThat(sim.eks.runResources("run-9")).containsExactly("eks:nodegroup/c1/ng");
    }

    @Test
    void preExistingClustersStillDescribeAndAreNeverARunsResource() {
        sim.eks.addExistingCluster("warm", () -> "http://warm:6443", "1.30");
        Cluster warm = describe("warm");
        assertThat(warm.status()).isEqualTo(ClusterStatus.ACTIVE);
        assertThat(warm.endpoint()).isEqualTo("http://warm:6443");
        assertThat(warm.version()).isEqualTo("1.30");
        assertThat(warm.tags()).isEmpty();
        activeCluster("mine");

        assertThat(sim.eks.resources())
                .extracting(CloudResource::ref)
                .containsExactly("eks:cluster/mine", "eks:cluster/warm");
        assertThat(sim.eks.runResources()).containsExactly("eks:cluster/mine");
        assertThat(sim.eks.runResources("run-1")).containsExactly("eks:cluster/mine");
        assertThat(sim.eks.runResources("run-2")).isEmpty();
        assertThat(sim.count("eks:DescribeCluster")).isEqualTo(1);
    }
}
