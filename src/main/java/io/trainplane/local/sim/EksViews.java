package io.trainplane.local.sim;

import io.trainplane.local.sim.EksRecords.AccessEntryRecord;
import io.trainplane.local.sim.EksRecords.AddonRecord;
import io.trainplane.local.sim.EksRecords.ClusterRecord;
import io.trainplane.local.sim.EksRecords.NodegroupRecord;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import software.amazon.awssdk.services.eks.model.AMITypes;
import software.amazon.awssdk.services.eks.model.AccessConfigResponse;
import software.amazon.awssdk.services.eks.model.AccessEntry;
import software.amazon.awssdk.services.eks.model.Addon;
import software.amazon.awssdk.services.eks.model.AddonHealth;
import software.amazon.awssdk.services.eks.model.AddonStatus;
import software.amazon.awssdk.services.eks.model.AuthenticationMode;
import software.amazon.awssdk.services.eks.model.AutoScalingGroup;
import software.amazon.awssdk.services.eks.model.CapacityTypes;
import software.amazon.awssdk.services.eks.model.Certificate;
import software.amazon.awssdk.services.eks.model.Cluster;
import software.amazon.awssdk.services.eks.model.ClusterStatus;
import software.amazon.awssdk.services.eks.model.CreateAccessConfigRequest;
import software.amazon.awssdk.services.eks.model.CreateClusterRequest;
import software.amazon.awssdk.services.eks.model.CreateNodegroupRequest;
import software.amazon.awssdk.services.eks.model.Identity;
import software.amazon.awssdk.services.eks.model.IpFamily;
import software.amazon.awssdk.services.eks.model.Issue;
import software.amazon.awssdk.services.eks.model.KubernetesNetworkConfigResponse;
import software.amazon.awssdk.services.eks.model.LogSetup;
import software.amazon.awssdk.services.eks.model.LogType;
import software.amazon.awssdk.services.eks.model.Logging;
import software.amazon.awssdk.services.eks.model.Nodegroup;
import software.amazon.awssdk.services.eks.model.NodegroupHealth;
import software.amazon.awssdk.services.eks.model.NodegroupIssueCode;
import software.amazon.awssdk.services.eks.model.NodegroupResources;
import software.amazon.awssdk.services.eks.model.NodegroupStatus;
import software.amazon.awssdk.services.eks.model.OIDC;
import software.amazon.awssdk.services.eks.model.VpcConfigRequest;
import software.amazon.awssdk.services.eks.model.VpcConfigResponse;

/** EKS resources as DescribeCluster/DescribeNodegroup/DescribeAddon show them at a given instant. */
final class EksViews {
    /** DescribeAddon's message for an add-on whose pods do not all run. */
    static final String INSUFFICIENT_REPLICAS =
            "The add-on is unhealthy because it doesn't have the desired number of replicas.";

    private EksViews() {}

    /**
     * The version of a cluster created without one: EKS's default version (DescribeClusterVersions'
     * {@code defaultVersion}) by the twin's calendar ({@link EksVersionCalendar}). EKS's default is
     * sometimes one release older.
     */
    static String defaultVersion(Instant createdAt) {
        return EksVersionCalendar.defaultVersion(createdAt)
                .orElse(EksVersionCalendar.rows().getLast().version());
    }

    /** The cluster's Kubernetes version: the one it was created with, else the default of its day. */
    static String version(ClusterRecord c) {
        return c.request.version() == null ? defaultVersion(c.life.createdAt()) : c.request.version();
    }

    /** A self-signed certificate (CN=kubernetes): what an EKS cluster's CA looks like to a client. */
    private static final String CA_PEM =
            """
            -----BEGIN CERTIFICATE-----
            MIIBgjCCASegAwIBAgIUTgoV/72tvpeycn9xHWDnf1ImCwIwCgYIKoZIzj0EAwIw
            FTETMBEGA1UEAwwKa3ViZXJuZXRlczAgFw0yNjExMjIwMDQ0MTFaGA8yMTI2MTAy
            OTAwNDQxMVowFTETMBEGA1UEAwwKa3ViZXJuZXRlczBZMBMGByqGSM49AgEGCCqG
            SM49AwEHA0IABJqTYZuRWL+suFEWBno2xHy91DqQY9+8UTi/eNniRE2M2P0NnmAA
            02vr7nuIZDg/XHWxqhmM8HV2nLqO+/V6iSSjUzBRMB0GA1UdDgQWBBQlyhO2EO8/
            oWnAhOdbpC6lVF+tjjAfBgNVHSMEGDAWgBQlyhO2EO8/oWnAhOdbpC6lVF+tjjAP
            BgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0kAMEYCIQDpI22awmmjRZKfUj+N
            pl7veS1zu3sRLphRN14hXuiEUgIhAKHDovS/8ZEFshN/N9UvfZ3mE0Zn0ZkOH5HJ
            mhFQmfK/
            -----END CERTIFICATE-----
            """;

    static final String CA_DATA = Base64.getEncoder().encodeToString(CA_PEM.getBytes(StandardCharsets.US_ASCII));

    static Cluster cluster(ClusterRecord c, Instant now) {
        CreateClusterRequest r = c.request;
        ClusterStatus status =
                switch (c.life.phase(now)) {
                    case CREATING -> ClusterStatus.CREATING;
                    case READY -> ClusterStatus.ACTIVE;
                    case DELETING, GONE -> ClusterStatus.DELETING;
                };
        // The endpoint, the CA and the cluster security group appear once the control plane is up.
        boolean up = status != ClusterStatus.CREATING;
        VpcConfigRequest vpc =
                r.resourcesVpcConfig() == null ? VpcConfigRequest.builder().build() : r.resourcesVpcConfig();
        CreateAccessConfigRequest access =
                r.accessConfig() == null ? CreateAccessConfigRequest.builder().build() : r.accessConfig();
        Cluster.Builder b = Cluster.builder()
                .name(c.name())
                .arn(c.arn())
                .id(c.id.toLowerCase(Locale.ROOT))
                .createdAt(c.life.createdAt())
                .version(version(c))
                .platformVersion("eks.1")
                .roleArn(r.roleArn())
                .status(status)
                .clientRequestToken(r.clientRequestToken())
                .resourcesVpcConfig(VpcConfigResponse.builder()
                        .subnetIds(vpc.subnetIds())
                        .securityGroupIds(vpc.securityGroupIds())
                        .clusterSecurityGroupId(up ? c.securityGroupId : null)
                        .vpcId(c.vpcId)
                        .endpointPublicAccess(vpc.endpointPublicAccess() == null || vpc.endpointPublicAccess())
                        .endpointPrivateAccess(vpc.endpointPrivateAccess() != null && vpc.endpointPrivateAccess())
                        .publicAccessCidrs(vpc.hasPublicAccessCidrs() ? vpc.publicAccessCidrs() : List.of("0.0.0.0/0"))
                        .build())
                .kubernetesNetworkConfig(KubernetesNetworkConfigResponse.builder()
                        .serviceIpv4Cidr("10.100.0.0/16")
                        .ipFamily(IpFamily.IPV4)
                        .build())
                .logging(
                        r.logging() != null
                                ? r.logging()
                                : Logging.builder()
                                        .clusterLogging(LogSetup.builder()
                                                .types(LogType.knownValues())
                                                .enabled(false)
                                                .build())
                                        .build())
                .accessConfig(AccessConfigResponse.builder()
                        .authenticationMode(
                                access.authenticationMode() == null
                                        ? AuthenticationMode.CONFIG_MAP
                                        : access.authenticationMode())
                        .bootstrapClusterCreatorAdminPermissions(
                                access.bootstrapClusterCreatorAdminPermissions() == null
                                        || access.bootstrapClusterCreatorAdminPermissions())
                        .build())
                .tags(c.tags);
        if (up) {
            b.endpoint(c.endpoint())
                    .certificateAuthority(Certificate.builder().data(CA_DATA).build())
                    .identity(Identity.builder()
                            .oidc(OIDC.builder()
                                    .issuer("https://oidc.eks." + AwsService.REGION + ".amazonaws.com/id/" + c.id)
                                    .build())
                            .build());
        }
        return b.build();
    }

    /** A scaling change as DescribeUpdate shows it: a ConfigUpdate, InProgress until it is done. */
    static software.amazon.awssdk.services.eks.model.Update scalingUpdate(EksRecords.Scaling s, Instant now) {
        var config = s.config();
        return software.amazon.awssdk.services.eks.model.Update.builder()
                .id(s.updateId())
                .type(software.amazon.awssdk.services.eks.model.UpdateType.CONFIG_UPDATE)
                .status(
                        now.isBefore(s.doneAt())
                                ? software.amazon.awssdk.services.eks.model.UpdateStatus.IN_PROGRESS
                                : software.amazon.awssdk.services.eks.model.UpdateStatus.SUCCESSFUL)
                .createdAt(s.at())
                .params(
                        param("MinSize", config.minSize()),
                        param("MaxSize", config.maxSize()),
                        param("DesiredSize", config.desiredSize()))
                .build();
    }

    private static software.amazon.awssdk.services.eks.model.UpdateParam param(String type, int value) {
        return software.amazon.awssdk.services.eks.model.UpdateParam.builder()
                .type(type)
                .value(Integer.toString(value))
                .build();
    }

    static Nodegroup nodegroup(NodegroupRecord n, Instant now) {
        CreateNodegroupRequest r = n.request;
        NodegroupStatus status =
                switch (n.life.phase(now)) {
                    case CREATING -> NodegroupStatus.CREATING;
                    case READY ->
                        n.launchFailure != null
                                ? NodegroupStatus.CREATE_FAILED
                                : n.updating(now).isPresent() ? NodegroupStatus.UPDATING : NodegroupStatus.ACTIVE;
                    case DELETING, GONE -> NodegroupStatus.DELETING;
                };
        List<Issue> issues = status != NodegroupStatus.CREATE_FAILED
                ? List.of()
                : List.of(Issue.builder()
                        .code(NodegroupIssueCode.ASG_INSTANCE_LAUNCH_FAILURES)
                        .message(n.launchFailure)
                        .resourceIds(n.autoScalingGroup)
                        .build());
        return Nodegroup.builder()
                .nodegroupName(r.nodegroupName())
                .nodegroupArn(n.arn())
                .clusterName(r.clusterName())
                .version(n.version)
                .releaseVersion(n.version + ".0-20250101")
                .createdAt(n.life.createdAt())
                .modifiedAt(
                        n.life.isDeleting()
                                ? n.life.deleteRequestedAt()
                                : n.scalings.isEmpty()
                                        ? n.life.createdAt()
                                        : n.scalings.getLast().at())
                .status(status)
                .capacityType(r.capacityType() == null ? CapacityTypes.ON_DEMAND : r.capacityType())
                .scalingConfig(n.scaling())
                .instanceTypes(
                        r.hasInstanceTypes()
                                ? r.instanceTypes()
                                : r.launchTemplate() == null ? List.of("t3.medium") : null)
                .subnets(r.subnets())
                .amiType(r.amiType() == null ? AMITypes.AL2023_X86_64_STANDARD : r.amiType())
                .nodeRole(r.nodeRole())
                .labels(r.labels())
                .taints(r.taints())
                .diskSize(r.diskSize() != null ? r.diskSize() : r.launchTemplate() == null ? Integer.valueOf(20) : null)
                .launchTemplate(r.launchTemplate())
                .resources(
                        status == NodegroupStatus.CREATING
                                ? null
                                : NodegroupResources.builder()
                                        .autoScalingGroups(AutoScalingGroup.builder()
                                                .name(n.autoScalingGroup)
                                                .build())
                                        .build())
                .health(NodegroupHealth.builder().issues(issues).build())
                .tags(n.tags)
                .build();
    }

    /**
     * The add-on at {@code now}; {@code running} is whether its pods run on the cluster (empty: no
     * API server to ask, the timer alone decides). It is CREATING for at least
     * {@link SimulatedEks#ADDON_CREATING}, then ACTIVE once its pods run; while they do not it stays
     * CREATING until {@link SimulatedEks#ADDON_DEGRADED_AFTER}, and is DEGRADED after that (or at
     * once if it had been ACTIVE), with the health issue EKS reports.
     */
    static Addon addon(AddonRecord a, Instant now, java.util.Optional<Boolean> running) {
        boolean healthy = running.orElse(true);
        List<software.amazon.awssdk.services.eks.model.AddonIssue> issues = List.of();
        AddonStatus status =
                switch (a.life.phase(now)) {
                    case CREATING -> AddonStatus.CREATING;
                    case READY -> {
                        if (healthy) {
                            a.wasActive = true;
                            yield AddonStatus.ACTIVE;
                        }
                        if (!a.wasActive && now.isBefore(a.life.createdAt().plus(SimulatedEks.ADDON_DEGRADED_AFTER))) {
                            yield AddonStatus.CREATING;
                        }
                        // EKS's wording, as DescribeAddon returns it (e.g.
                        // https://github.com/aws-ia/terraform-aws-eks-blueprints-addons/issues/335,
                        // https://github.com/aws/containers-roadmap/issues/2328); codes:
                        // https://docs.aws.amazon.com/eks/latest/APIReference/API_AddonIssue.html
                        issues = List.of(software.amazon.awssdk.services.eks.model.AddonIssue.builder()
                                .code(
                                        software.amazon.awssdk.services.eks.model.AddonIssueCode
                                                .INSUFFICIENT_NUMBER_OF_REPLICAS)
                                .message(INSUFFICIENT_REPLICAS)
                                .build());
                        yield AddonStatus.DEGRADED;
                    }
                    case DELETING, GONE -> AddonStatus.DELETING;
                };
        return Addon.builder()
                .addonName(a.request.addonName())
                .clusterName(a.request.clusterName())
                .addonArn(a.arn())
                .addonVersion(a.version)
                .status(status)
                .health(AddonHealth.builder().issues(issues).build())
                .createdAt(a.life.createdAt())
                .modifiedAt(a.life.isDeleting() ? a.life.deleteRequestedAt() : a.life.createdAt())
                .serviceAccountRoleArn(a.request.serviceAccountRoleArn())
                .configurationValues(a.request.configurationValues())
                .podIdentityAssociations(a.podIdentities.stream()
                        .map(AddonPodIdentity::associationArn)
                        .toList())
                .tags(a.tags)
                .build();
    }

    static AccessEntry accessEntry(AccessEntryRecord e) {
        return AccessEntry.builder()
                .clusterName(e.cluster)
                .principalArn(e.principal.arn())
                .accessEntryArn(e.arn())
                .type(e.type)
                .username(e.username)
                .kubernetesGroups(e.kubernetesGroups)
                .createdAt(e.createdAt)
                .modifiedAt(e.createdAt)
                .tags(e.tags)
                .build();
    }
}
