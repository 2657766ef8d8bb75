package io.trainplane.aws.eks;

import static io.trainplane.aws.eks.Fixtures.CLUSTER;
import static io.trainplane.aws.eks.Fixtures.CPU_NODES;
import static io.trainplane.aws.eks.Fixtures.GPU_NODES;
import static io.trainplane.aws.eks.Fixtures.NAMES;
import static io.trainplane.aws.eks.Fixtures.NETWORK;
import static io.trainplane.aws.eks.Fixtures.ROLES;
import static io.trainplane.aws.eks.Fixtures.TAGS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.aws.ClusterNetwork;
import io.trainplane.aws.RunTags;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.spec.CapacityType;
import io.trainplane.spec.ClusterMode;
import io.trainplane.spec.ClusterSpec;
import io.trainplane.spec.Names;
import io.trainplane.spec.NodeGroupSpec;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.eks.model.AMITypes;
import software.amazon.awssdk.services.eks.model.AuthenticationMode;
import software.amazon.awssdk.services.eks.model.CapacityTypes;
import software.amazon.awssdk.services.eks.model.CreateAddonRequest;
import software.amazon.awssdk.services.eks.model.CreateClusterRequest;
import software.amazon.awssdk.services.eks.model.CreateNodegroupRequest;
import software.amazon.awssdk.services.eks.model.LogType;
import software.amazon.awssdk.services.eks.model.ResolveConflicts;
import software.amazon.awssdk.services.eks.model.Taint;
import software.amazon.awssdk.services.eks.model.TaintEffect;

class EksRequestsTest {
    static RunTags tagsOf(Names names) {
        return new RunTags("ml-prod", names.runId());
    }

    @Test
    void createClusterCarriesEveryFieldOfTheRun() {
        CreateClusterRequest request = EksRequests.createCluster(NAMES, TAGS, CLUSTER, NETWORK, ROLES);

        assertThat(request.name()).isEqualTo(NAMES.clusterName()).isEqualTo("tp-cifar10-nightly-001-eks");
        assertThat(request.version()).isEqualTo(Fixtures.CLUSTER.kubernetesVersion());
        assertThat(request.roleArn()).isEqualTo(ROLES.clusterRoleArn());
        assertThat(request.resourcesVpcConfig().subnetIds()).containsExactly("subnet-0aa", "subnet-0bb");
        assertThat(request.resourcesVpcConfig().securityGroupIds()).containsExactly("sg-0cc");
        assertThat(request.resourcesVpcConfig().endpointPublicAccess()).isTrue();
        assertThat(request.resourcesVpcConfig().endpointPrivateAccess()).isTrue();
        assertThat(request.resourcesVpcConfig().hasPublicAccessCidrs()).isFalse(); // EKS's default: 0.0.0.0/0
        assertThat(request.accessConfig().authenticationMode()).isEqualTo(AuthenticationMode.API_AND_CONFIG_MAP);
        assertThat(request.accessConfig().bootstrapClusterCreatorAdminPermissions())
                .isTrue();
        assertThat(request.logging().clusterLogging()).singleElement().satisfies(setup -> {
            assertThat(setup.enabled()).isTrue();
            assertThat(setup.types()).containsExactly(LogType.API, LogType.AUDIT, LogType.AUTHENTICATOR);
        });
        assertThat(request.tags())
                .isEqualTo(Map.of(Names.RUN_ID_TAG, "cifar10-nightly-001", RunTags.STACK_TAG, "ml-prod"));
        assertThat(request.clientRequestToken()).isEqualTo(NAMES.clientRequestToken("CreateCluster"));
    }

    @Test
    void theStacksPublicCidrsNarrowThePublicEndpoint() {
        ClusterNetwork narrowed = new ClusterNetwork(
                NETWORK.subnetIds(), NETWORK.securityGroupIds(), List.of("203.0.113.0/24", "198.51.100.7/32"));

        CreateClusterRequest request = EksRequests.createCluster(NAMES, TAGS, CLUSTER, narrowed, ROLES);

        assertThat(request.resourcesVpcConfig().publicAccessCidrs())
                .containsExactly("203.0.113.0/24", "198.51.100.7/32");
        assertThat(request.resourcesVpcConfig().endpointPrivateAccess()).isTrue();
    }

    @Test
    void anExistingClusterIsNeverCreated() {
        ClusterSpec existing = new ClusterSpec(ClusterMode.EXISTING, "warm", null, null);

        assertThatThrownBy(() -> EksRequests.createCluster(NAMES, TAGS, existing, NETWORK, ROLES))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("creates no cluster");
    }

    @Test
    void gpuNodeGroupGetsTheNvidiaImageTheGpuLabelAndTheGpuTaint() {
        CreateNodegroupRequest request = EksRequests.createNodegroup(NAMES, TAGS, GPU_NODES, NETWORK, ROLES, "lt-0123");

        assertThat(request.clusterName()).isEqualTo(NAMES.clusterName());
        assertThat(request.nodegroupName()).isEqualTo(NAMES.nodeGroupName()).isEqualTo("tp-cifar10-nightly-001-nodes");
        assertThat(request.nodeRole()).isEqualTo(ROLES.nodeRoleArn());
        assertThat(request.subnets()).containsExactly("subnet-0aa", "subnet-0bb");
        assertThat(request.scalingConfig().minSize()).isEqualTo(2);
        assertThat(request.scalingConfig().desiredSize()).isEqualTo(2);
        assertThat(request.scalingConfig().maxSize()).isEqualTo(2);
        assertThat(request.instanceTypes()).containsExactly("g5.12xlarge");
        assertThat(request.capacityType()).isEqualTo(CapacityTypes.ON_DEMAND);
        assertThat(request.amiType()).isEqualTo(AMITypes.AL2023_X86_64_NVIDIA);
        assertThat(request.labels())
                .isEqualTo(Map.of(
                        "trainplane/run-id",
                        "cifar10-nightly-001",
                        "trainplane.io/node-pool",
                        "workers",
                        "trainplane/gpu",
                        "true"));
        assertThat(request.taints())
                .containsExactly(Taint.builder()
                        .key("nvidia.com/gpu")
                        .value("present")
                        .effect(TaintEffect.NO_SCHEDULE)
                        .build());
        assertThat(request.tags()).isEqualTo(TAGS.asMap());
        assertThat(request.clientRequestToken()).isEqualTo(NAMES.clientRequestToken("CreateNodegroup"));
        assertThat(request.launchTemplate().id()).isEqualTo("lt-0123");
        assertThat(request.diskSize()).isNull();
        assertThat(request.remoteAccess()).isNull();
    }

    @Test
    void cpuNodeGroupHasTheStandardImageNoGpuLabelAndNoTaint() {
        CreateNodegroupRequest request = EksRequests.createNodegroup(NAMES, TAGS, CPU_NODES, NETWORK, ROLES, "lt-0123");

        assertThat(request.amiType()).isEqualTo(AMITypes.AL2023_X86_64_STANDARD);
        assertThat(request.labels())
                .isEqualTo(Map.of("trainplane/run-id", "cifar10-nightly-001", "trainplane.io/node-pool", "workers"));
        assertThat(request.hasTaints()).isFalse();
        assertThat(request.capacityType()).isEqualTo(CapacityTypes.SPOT);
        assertThat(request.scalingConfig().minSize()).isEqualTo(3);
        assertThat(request.scalingConfig().maxSize()).isEqualTo(3);
    }

    @Test
    void theSystemNodeGroupIsOneSmallUntaintedOnDemandNodeInTheWorkersSubnetsWithItsOwnLaunchTemplate() {
        CreateNodegroupRequest request = EksRequests.createSystemNodegroup(NAMES, TAGS, NETWORK, ROLES, "lt-0system");

        assertThat(request.clusterName()).isEqualTo(NAMES.clusterName());
        assertThat(request.nodegroupName())
                .isEqualTo(NAMES.systemNodeGroupName())
                .isEqualTo("tp-cifar10-nightly-001-system");
        assertThat(request.nodeRole()).isEqualTo(ROLES.nodeRoleArn());
        assertThat(request.subnets()).containsExactly("subnet-0aa", "subnet-0bb");
        assertThat(request.scalingConfig().minSize()).isEqualTo(1);
        assertThat(request.scalingConfig().desiredSize()).isEqualTo(1);
        assertThat(request.scalingConfig().maxSize()).isEqualTo(1);
        assertThat(request.instanceTypes()).containsExactly("m5.large");
        assertThat(request.capacityType()).isEqualTo(CapacityTypes.ON_DEMAND);
        assertThat(request.amiType()).isEqualTo(AMITypes.AL2023_X86_64_STANDARD);
        assertThat(request.labels())
                .isEqualTo(Map.of("trainplane/run-id", "cifar10-nightly-001", "trainplane.io/node-pool", "system"));
        assertThat(request.hasTaints()).isFalse();
        // Its template (IMDSv2, hop limit 1) names no instance type: the node group does.
        assertThat(request.launchTemplate().id()).isEqualTo("lt-0system");
        assertThat(request.diskSize()).isNull(); // EKS refuses a disk size beside a launch template
        assertThat(request.tags()).isEqualTo(TAGS.asMap());
        // Its own token: a retried create of one node group is never taken for the other.
        assertThat(request.clientRequestToken())
                .isEqualTo(NAMES.clientRequestToken("CreateSystemNodegroup"))
                .isNotEqualTo(NAMES.clientRequestToken("CreateNodegroup"));
    }

    @ParameterizedTest
    @CsvSource({
        "g5.12xlarge,   4, AL2023_x86_64_NVIDIA",
        "p4d.24xlarge,  8, AL2023_x86_64_NVIDIA",
        "g4dn.xlarge,   1, AL2023_x86_64_NVIDIA",
        "g5g.2xlarge,   1, AL2023_ARM_64_NVIDIA",
        "m7g.xlarge,    0, AL2023_ARM_64_STANDARD",
        "c7gn.large,    0, AL2023_ARM_64_STANDARD",
        "r6gd.large,    0, AL2023_ARM_64_STANDARD",
        "t4g.medium,    0, AL2023_ARM_64_STANDARD",
        "a1.large,      0, AL2023_ARM_64_STANDARD",
        "m6i.2xlarge,   0, AL2023_x86_64_STANDARD",
        "g4dn.xlarge,   0, AL2023_x86_64_STANDARD",
        "c5.large,      0, AL2023_x86_64_STANDARD",
        "trn1.32xlarge, 0, AL2023_x86_64_NEURON",
        "inf2.xlarge,   0, AL2023_x86_64_NEURON",
    })
    void amiTypeFollowsTheInstanceType(String instanceType, int gpus, String amiType) {
        assertThat(EksRequests.amiType(Fixtures.nodes(instanceType, gpus)).toString())
                .isEqualTo(amiType);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "m7g.large",
                "c7gn.16xlarge",
                "im4gn.large",
                "is4gen.medium",
                "hpc7g.16xlarge",
                "x2gd.large",
                "m8g.large"
            })
    void gravitonFamiliesAreArm(String type) {
        assertThat(EksRequests.isGraviton(type)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "g4dn.xlarge",
                "g6e.xlarge",
                "gr6.4xlarge",
                "p5.48xlarge",
                "m7i-flex.large",
                "p6-b200.48xlarge",
                "nonsense"
            })
    void otherFamiliesAreX86(String type) {
        assertThat(EksRequests.isGraviton(type)).isFalse();
    }

    @Test
    void aLaunchTemplateIsReferencedByIdAndTheInstanceTypeStays() {
        CreateNodegroupRequest request = EksRequests.createNodegroup(NAMES, TAGS, GPU_NODES, NETWORK, ROLES, "lt-0123");

        assertThat(request.launchTemplate().id()).isEqualTo("lt-0123");
        assertThat(request.launchTemplate().name()).isNull();
        assertThat(request.instanceTypes()).containsExactly("g5.12xlarge");
        assertThat(request.diskSize()).isNull();
        assertThat(request.remoteAccess()).isNull();
    }

    @Test
    void everyNodeGroupNeedsALaunchTemplate() {
        NodeGroupSpec block = new NodeGroupSpec("p5.48xlarge", 2, 8, CapacityType.CAPACITY_BLOCK, "cr-0abc", true);

        assertThatThrownBy(() -> EksRequests.createNodegroup(NAMES, TAGS, block, NETWORK, ROLES, null))
                .isInstanceOfSatisfying(TerminalException.class, e -> assertThat(e.reason())
                        .isEqualTo(FailureReason.LaunchTemplateRequired))
                .hasMessageContaining("capacity block");
        assertThatThrownBy(() -> EksRequests.createNodegroup(NAMES, TAGS, CPU_NODES, NETWORK, ROLES, ""))
                .isInstanceOfSatisfying(TerminalException.class, e -> assertThat(e.reason())
                        .isEqualTo(FailureReason.LaunchTemplateRequired));
        assertThatThrownBy(() -> EksRequests.createSystemNodegroup(NAMES, TAGS, NETWORK, ROLES, null))
                .isInstanceOfSatisfying(TerminalException.class, e -> assertThat(e.reason())
                        .isEqualTo(FailureReason.LaunchTemplateRequired))
                .hasMessageContaining(NAMES.systemNodeGroupName());
        CreateNodegroupRequest request = EksRequests.createNodegroup(NAMES, TAGS, block, NETWORK, ROLES, "lt-0123");
        assertThat(request.capacityType()).isEqualTo(CapacityTypes.CAPACITY_BLOCK);
        // The Capacity Block's launch template names the instance type; EKS refuses it twice.
        assertThat(request.hasInstanceTypes()).isFalse();
        assertThat(request.amiType()).isEqualTo(AMITypes.AL2023_X86_64_NVIDIA);
    }

    @Test
    void tokensAreDeterministicPerRunDistinctPerOperationAndFitEks() {
        Names again = new Names(Fixtures.RUN_ID);
        assertThat(EksRequests.createCluster(again, tagsOf(again), CLUSTER, NETWORK, ROLES))
                .isEqualTo(EksRequests.createCluster(NAMES, TAGS, CLUSTER, NETWORK, ROLES));
        assertThat(EksRequests.createNodegroup(again, tagsOf(again), GPU_NODES, NETWORK, ROLES, "lt-0123"))
                .isEqualTo(EksRequests.createNodegroup(NAMES, TAGS, GPU_NODES, NETWORK, ROLES, "lt-0123"));

        String longest = "r".repeat(Names.MAX_RUN_ID);
        Names longNames = new Names(longest);
        String cluster = EksRequests.createCluster(longNames, tagsOf(longNames), CLUSTER, NETWORK, ROLES)
                .clientRequestToken();
        String nodegroup = EksRequests.createNodegroup(
                        longNames, tagsOf(longNames), GPU_NODES, NETWORK, ROLES, "lt-0123")
                .clientRequestToken();
        String addon = EksRequests.createAddon(
                        longNames.clusterName(), EksAddons.EFS_CSI_DRIVER, Optional.empty(), TAGS)
                .clientRequestToken();
        assertThat(cluster).hasSizeLessThanOrEqualTo(64).isNotEqualTo(nodegroup);
        assertThat(nodegroup).hasSizeLessThanOrEqualTo(64);
        assertThat(addon).hasSizeLessThanOrEqualTo(64);
        assertThat(EksRequests.createCluster(
                                new Names("other-run"), tagsOf(new Names("other-run")), CLUSTER, NETWORK, ROLES)
                        .clientRequestToken())
                .isNotEqualTo(EksRequests.createCluster(NAMES, TAGS, CLUSTER, NETWORK, ROLES)
                        .clientRequestToken());
        assertThat(EksRequests.createAddon("c", EksAddons.EFS_CSI_DRIVER, Optional.empty(), TAGS)
                        .clientRequestToken())
                .isEqualTo(EksRequests.createAddon("c", EksAddons.EFS_CSI_DRIVER, Optional.empty(), TAGS)
                        .clientRequestToken())
                .isNotEqualTo(EksRequests.createAddon("c", EksAddons.POD_IDENTITY_AGENT, Optional.empty(), TAGS)
                        .clientRequestToken());
    }

    @Test
    void efsCsiAddonGetsItsControllerRoleThroughPodIdentity() {
        CreateAddonRequest request = EksRequests.createAddon(
                NAMES.clusterName(),
                EksAddons.EFS_CSI_DRIVER,
                Optional.of(PodIdentity.efsCsiController(Fixtures.ROLES.efsCsiRoleArn())),
                TAGS);

        assertThat(request.clusterName()).isEqualTo(NAMES.clusterName());
        assertThat(request.addonName()).isEqualTo("aws-efs-csi-driver");
        assertThat(request.resolveConflicts()).isEqualTo(ResolveConflicts.OVERWRITE);
        assertThat(request.addonVersion()).isNull();
        assertThat(request.tags()).isEqualTo(TAGS.asMap()); // IAM scopes Describe/DeleteAddon by aws:ResourceTag
        assertThat(request.podIdentityAssociations()).singleElement().satisfies(association -> {
            assertThat(association.serviceAccount()).isEqualTo("efs-csi-controller-sa");
            assertThat(association.roleArn()).isEqualTo(Fixtures.ROLES.efsCsiRoleArn());
        });
    }

    @Test
    void podIdentityAgentHasNoAssociation() {
        CreateAddonRequest request =
                EksRequests.createAddon(NAMES.clusterName(), EksAddons.POD_IDENTITY_AGENT, Optional.empty(), TAGS);

        assertThat(request.addonName()).isEqualTo("eks-pod-identity-agent");
        assertThat(request.tags()).isEqualTo(TAGS.asMap());
        assertThat(request.hasPodIdentityAssociations()).isFalse();
    }

    @Test
    void aDiversifiedSpotNodeGroupPassesEveryInstanceTypeInOrder() {
        NodeGroupSpec spot =
                new NodeGroupSpec(null, List.of("g5.xlarge", "g5.2xlarge"), 2, 1, CapacityType.SPOT, null, false);

        CreateNodegroupRequest request = EksRequests.createNodegroup(NAMES, TAGS, spot, NETWORK, ROLES, "lt-0123");

        assertThat(request.instanceTypes()).containsExactly("g5.xlarge", "g5.2xlarge");
        assertThat(request.capacityTypeAsString()).isEqualTo("SPOT");
        assertThat(request.amiType()).isEqualTo(AMITypes.AL2023_X86_64_NVIDIA);
    }
}
