package io.trainplane.aws.eks;

import io.trainplane.aws.ClusterNetwork;
import io.trainplane.aws.ClusterRoles;
import io.trainplane.aws.RunTags;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.spec.CapacityType;
import io.trainplane.spec.ClusterSpec;
import io.trainplane.spec.InstanceShapes;
import io.trainplane.spec.Names;
import io.trainplane.spec.NodeGroupSpec;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.eks.model.AMITypes;
import software.amazon.awssdk.services.eks.model.AddonPodIdentityAssociations;
import software.amazon.awssdk.services.eks.model.AuthenticationMode;
import software.amazon.awssdk.services.eks.model.CapacityTypes;
import software.amazon.awssdk.services.eks.model.CreateAccessConfigRequest;
import software.amazon.awssdk.services.eks.model.CreateAddonRequest;
import software.amazon.awssdk.services.eks.model.CreateClusterRequest;
import software.amazon.awssdk.services.eks.model.CreateNodegroupRequest;
import software.amazon.awssdk.services.eks.model.LaunchTemplateSpecification;
import software.amazon.awssdk.services.eks.model.LogSetup;
import software.amazon.awssdk.services.eks.model.LogType;
import software.amazon.awssdk.services.eks.model.Logging;
import software.amazon.awssdk.services.eks.model.NodegroupScalingConfig;
import software.amazon.awssdk.services.eks.model.ResolveConflicts;
import software.amazon.awssdk.services.eks.model.Taint;
import software.amazon.awssdk.services.eks.model.TaintEffect;
import software.amazon.awssdk.services.eks.model.VpcConfigRequest;

/**
 * The EKS requests of a run as pure functions of its spec and the stack's network and roles: no
 * endpoint, no clock, no randomness. {@code trainplane plan} prints them; the lifecycles send them.
 */
public final class EksRequests {
    /** Label on GPU nodes; the training pods select it. */
    public static final String GPU_LABEL = "trainplane/gpu";
    /** Taint on GPU nodes, so only pods that tolerate it (those asking for GPUs) land there. */
    public static final String GPU_TAINT_KEY = "nvidia.com/gpu";

    public static final String GPU_TAINT_VALUE = "present";
    /**
     * Label on the nodes of each node group of a created cluster: which pool they are. The pods
     * select it ({@code io.trainplane.kubernetes.WorkloadManifests}); an existing cluster's nodes
     * do not carry it.
     */
    public static final String NODE_POOL_LABEL = "trainplane.io/node-pool";
    /** The pool of the small untainted node group: CoreDNS, the add-ons' controllers, operators, the data job. */
    public static final String SYSTEM_POOL = "system";
    /** The pool of the run's node group (accelerated, tainted when it has GPUs): training and evaluation only. */
    public static final String WORKER_POOL = "workers";
    /**
     * The system node group's instance type: the smallest general-purpose x86 size (2 vCPU, 8 GiB,
     * 29 pods with the VPC CNI) that holds what must run beside the workers: CoreDNS's two
     * replicas, the EFS CSI controller's, the Pod Identity agent, an operator, and the data job.
     * Not burstable (t3): the data job would spend its CPU credits.
     */
    public static final String SYSTEM_INSTANCE_TYPE = "m5.large";
    /** One node: what runs there is light, and a run lasts hours, not the weeks a second replica's zone guards. */
    public static final int SYSTEM_NODES = 1;
    /**
     * On demand whatever the workers' capacity type: a reclaimed Spot node would take the
     * cluster's DNS (and so the rendezvous) down with it in the middle of training.
     */
    public static final CapacityType SYSTEM_CAPACITY_TYPE = CapacityType.ON_DEMAND;

    static final String CREATE_CLUSTER = "CreateCluster";
    static final String CREATE_NODEGROUP = "CreateNodegroup";
    static final String CREATE_SYSTEM_NODEGROUP = "CreateSystemNodegroup";

    /** Instance type: family (letters, generation digit, attribute letters), '.', size. */
    private EksRequests() {}

    /**
     * CreateCluster for a run: access mode {@code API_AND_CONFIG_MAP} with the creator (the
     * function's role) as cluster admin, a public and a private API endpoint, control-plane logs
     * for the API server, audit and authenticator (into the log group the run made first,
     * {@link io.trainplane.aws.ec2.ControlPlaneLogGroup}).
     *
     * <p>The public endpoint is for the functions, which run outside the VPC; the stack's
     * {@code ClusterEndpointPublicCidrs} narrows who may reach it (none given: EKS's default,
     * 0.0.0.0/0). The private endpoint keeps the nodes' traffic to the API inside the VPC, so a
     * narrowed public endpoint never cuts them off.
     */
    public static CreateClusterRequest createCluster(
            Names names, RunTags tags, ClusterSpec spec, ClusterNetwork network, ClusterRoles roles) {
        if (!spec.created()) {
            throw new IllegalArgumentException(
                    "cluster.mode is " + spec.mode() + ": Trainplane creates no cluster for it");
        }
        VpcConfigRequest.Builder vpc = VpcConfigRequest.builder()
                .subnetIds(network.subnetIds())
                .securityGroupIds(network.securityGroupIds())
                .endpointPublicAccess(true)
                .endpointPrivateAccess(true);
        if (!network.publicAccessCidrs().isEmpty()) {
            vpc.publicAccessCidrs(network.publicAccessCidrs());
        }
        return CreateClusterRequest.builder()
                .name(names.clusterName())
                .version(spec.kubernetesVersion())
                .roleArn(roles.clusterRoleArn())
                .resourcesVpcConfig(vpc.build())
                .accessConfig(CreateAccessConfigRequest.builder()
                        .authenticationMode(AuthenticationMode.API_AND_CONFIG_MAP)
                        .bootstrapClusterCreatorAdminPermissions(true)
                        .build())
                .logging(Logging.builder()
                        .clusterLogging(LogSetup.builder()
                                .types(LogType.API, LogType.AUDIT, LogType.AUTHENTICATOR)
                                .enabled(true)
                                .build())
                        .build())
                .tags(tags.asMap())
                .clientRequestToken(names.clientRequestToken(CREATE_CLUSTER))
                .build();
    }

    /**
     * CreateNodegroup for a run: a fixed size (min = desired = max), the AMI family the instance
     * type needs, GPU label and taint on GPU nodes, and the run's launch template
     * ({@link io.trainplane.aws.ec2.Ec2DesiredState#launchTemplate}), which every node group gets
     * (IMDSv2 with a hop limit of 1; a capacity block's reservation; EFA).
     *
     * <p>The instance type and AMI type stay on the node group: EKS accepts instance types on the
     * node group when the template names none, and Trainplane's templates name no {@code ImageId}
     * and, but for a Capacity Block's (where EKS requires it), no {@code InstanceType}; a node group
     * whose template names it must not (CreateNodegroup API reference, {@code instanceTypes}). Disk
     * size and remote access are never set, as EKS refuses them beside a template. {@code network}
     * is the stack's, or for a capacity reservation its subnets in the reservation's zone
     * ({@code io.trainplane.aws.ec2.ReservedCapacity}).
     */
    public static CreateNodegroupRequest createNodegroup(
            Names names,
            RunTags tags,
            NodeGroupSpec spec,
            ClusterNetwork network,
            ClusterRoles roles,
            String launchTemplateId) {
        if (launchTemplateId == null || launchTemplateId.isBlank()) {
            throw new TerminalException(
                    FailureReason.LaunchTemplateRequired,
                    "node group " + names.nodeGroupName()
                            + " needs the run's launch template (IMDSv2 settings"
                            + (spec.capacityType() == CapacityType.CAPACITY_BLOCK
                                    ? ", the capacity block's reservation"
                                    : "")
                            + "): create the template before the node group");
        }
        boolean gpus = spec.gpusPerNode() > 0;
        CreateNodegroupRequest.Builder request = CreateNodegroupRequest.builder()
                .clusterName(names.clusterName())
                .nodegroupName(names.nodeGroupName())
                .nodeRole(roles.nodeRoleArn())
                .subnets(network.subnetIds())
                .scalingConfig(NodegroupScalingConfig.builder()
                        .minSize(spec.nodes())
                        .desiredSize(spec.nodes())
                        .maxSize(spec.nodes())
                        .build())
                .capacityType(capacityType(spec.capacityType()))
                .amiType(amiType(spec))
                .labels(nodeLabels(names, WORKER_POOL, gpus))
                .tags(tags.asMap())
                .launchTemplate(LaunchTemplateSpecification.builder()
                        .id(launchTemplateId)
                        .build())
                .clientRequestToken(names.clientRequestToken(CREATE_NODEGROUP));
        if (gpus) {
            request.taints(gpuTaint());
        }
        if (spec.capacityType() != CapacityType.CAPACITY_BLOCK) {
            request.instanceTypes(spec.types()); // a Capacity Block's template names it: EKS refuses both
        }
        return request.build();
    }

    /**
     * CreateNodegroup of the created cluster's system node group: {@value #SYSTEM_NODES} ×
     * {@value #SYSTEM_INSTANCE_TYPE}, on demand, untainted, labeled {@value #NODE_POOL_LABEL} =
     * {@value #SYSTEM_POOL}, in the workers' subnets with their node role, and with its own launch
     * template ({@link io.trainplane.aws.ec2.Ec2DesiredState#systemLaunchTemplate}: IMDSv2, hop
     * limit {@value io.trainplane.aws.ec2.Ec2DesiredState#METADATA_HOP_LIMIT}), not the workers'
     * (their EFA interfaces and capacity reservation). Without one, EKS generates a template with
     * AL2023's hop limit of 2 (https://docs.aws.amazon.com/linux/al2023/ug/imdsv2.html), and a pod
     * there (the data job) could reach the node role's credentials. The template names no instance
     * type, so the node group does.
     */
    public static CreateNodegroupRequest createSystemNodegroup(
            Names names, RunTags tags, ClusterNetwork network, ClusterRoles roles, String launchTemplateId) {
        if (launchTemplateId == null || launchTemplateId.isBlank()) {
            throw new TerminalException(
                    FailureReason.LaunchTemplateRequired,
                    "system node group " + names.systemNodeGroupName()
                            + " needs its launch template (IMDSv2 settings): create the template before the node group");
        }
        NodeGroupSpec system = systemNodeGroup();
        return CreateNodegroupRequest.builder()
                .clusterName(names.clusterName())
                .nodegroupName(names.systemNodeGroupName())
                .nodeRole(roles.nodeRoleArn())
                .subnets(network.subnetIds())
                .scalingConfig(NodegroupScalingConfig.builder()
                        .minSize(system.nodes())
                        .desiredSize(system.nodes())
                        .maxSize(system.nodes())
                        .build())
                .capacityType(capacityType(system.capacityType()))
                .amiType(amiType(system))
                .instanceTypes(system.types())
                .labels(nodeLabels(names, SYSTEM_POOL, false))
                .tags(tags.asMap())
                .launchTemplate(LaunchTemplateSpecification.builder()
                        .id(launchTemplateId)
                        .build())
                .clientRequestToken(names.clientRequestToken(CREATE_SYSTEM_NODEGROUP))
                .build();
    }

    /** The system node group as a node group spec: what the plan and the cost estimate price. */
    public static NodeGroupSpec systemNodeGroup() {
        return new NodeGroupSpec(SYSTEM_INSTANCE_TYPE, SYSTEM_NODES, 0, SYSTEM_CAPACITY_TYPE, null, false);
    }

    /**
     * CreateAddon: the default version for the cluster's Kubernetes version, configuration
     * conflicts resolved in the add-on's favour, a Pod Identity association when given, the run's
     * tags (the IAM policies scope DescribeAddon and DeleteAddon by {@code aws:ResourceTag}). The
     * token is derived from the cluster and add-on names, which are the run's own.
     *
     * <p>The Pod Identity association carries no tags: an entry of {@code podIdentityAssociations}
     * has only {@code serviceAccount} and {@code roleArn}
     * (https://docs.aws.amazon.com/eks/latest/APIReference/API_AddonPodIdentityAssociations.html),
     * and the association is the add-on's own (its {@code ownerArn},
     * https://docs.aws.amazon.com/eks/latest/APIReference/API_PodIdentityAssociation.html): it
     * goes with the add-on and the cluster, and the run never describes or deletes it itself.
     */
    public static CreateAddonRequest createAddon(
            String clusterName, String addonName, Optional<PodIdentity> podIdentity, RunTags tags) {
        CreateAddonRequest.Builder request = CreateAddonRequest.builder()
                .clusterName(clusterName)
                .addonName(addonName)
                .resolveConflicts(ResolveConflicts.OVERWRITE)
                .tags(tags.asMap())
                .clientRequestToken(addonToken(clusterName, addonName));
        podIdentity.ifPresent(identity -> request.podIdentityAssociations(AddonPodIdentityAssociations.builder()
                .serviceAccount(identity.serviceAccount())
                .roleArn(identity.roleArn())
                .build()));
        return request.build();
    }

    /** Idempotency token of CreateAddon: deterministic, at most 64 characters. */
    static String addonToken(String clusterName, String addonName) {
        return Names.fit(clusterName + "-" + addonName, Names.MAX_TOKEN);
    }

    /**
     * The EKS-optimized Amazon Linux 2023 image the nodes need: NVIDIA for GPU nodes, Neuron for
     * Trainium and Inferentia, ARM for Graviton, x86 otherwise.
     */
    public static AMITypes amiType(NodeGroupSpec spec) {
        String type = spec.firstType().toLowerCase(Locale.ROOT);
        boolean arm = isGraviton(type);
        if (spec.gpusPerNode() > 0) {
            return arm ? AMITypes.AL2023_ARM_64_NVIDIA : AMITypes.AL2023_X86_64_NVIDIA;
        }
        if (type.startsWith("trn") || type.startsWith("inf")) {
            return AMITypes.AL2023_X86_64_NEURON;
        }
        return arm ? AMITypes.AL2023_ARM_64_STANDARD : AMITypes.AL2023_X86_64_STANDARD;
    }

    /** Graviton (ARM) instance types, by {@link InstanceShapes#architecture}. */
    static boolean isGraviton(String instanceType) {
        return InstanceShapes.ARM64.equals(InstanceShapes.architecture(instanceType));
    }

    private static CapacityTypes capacityType(CapacityType type) {
        return switch (type) {
            case ON_DEMAND -> CapacityTypes.ON_DEMAND;
            case SPOT -> CapacityTypes.SPOT;
            case CAPACITY_BLOCK -> CapacityTypes.CAPACITY_BLOCK;
        };
    }

    private static Map<String, String> nodeLabels(Names names, String pool, boolean gpus) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(Names.RUN_ID_LABEL, names.runId());
        labels.put(NODE_POOL_LABEL, pool);
        if (gpus) {
            labels.put(GPU_LABEL, "true");
        }
        return labels;
    }

    private static Taint gpuTaint() {
        return Taint.builder()
                .key(GPU_TAINT_KEY)
                .value(GPU_TAINT_VALUE)
                .effect(TaintEffect.NO_SCHEDULE)
                .build();
    }
}
