package io.trainplane.local.sim;

import io.trainplane.local.iam.Authorizer;
import io.trainplane.local.iam.Callers;
import io.trainplane.local.iam.IamRequest;
import io.trainplane.local.sim.EksRecords.AddonRecord;
import io.trainplane.local.sim.EksRecords.ClusterRecord;
import io.trainplane.local.sim.EksRecords.NodegroupRecord;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.eks.model.AccessScopeType;
import software.amazon.awssdk.services.eks.model.AssociateAccessPolicyRequest;
import software.amazon.awssdk.services.eks.model.AssociateAccessPolicyResponse;
import software.amazon.awssdk.services.eks.model.AuthenticationMode;
import software.amazon.awssdk.services.eks.model.CreateAccessEntryRequest;
import software.amazon.awssdk.services.eks.model.CreateAccessEntryResponse;
import software.amazon.awssdk.services.eks.model.CreateAddonRequest;
import software.amazon.awssdk.services.eks.model.CreateAddonResponse;
import software.amazon.awssdk.services.eks.model.CreateClusterRequest;
import software.amazon.awssdk.services.eks.model.CreateClusterResponse;
import software.amazon.awssdk.services.eks.model.CreateNodegroupRequest;
import software.amazon.awssdk.services.eks.model.CreateNodegroupResponse;
import software.amazon.awssdk.services.eks.model.CreatePodIdentityAssociationRequest;
import software.amazon.awssdk.services.eks.model.CreatePodIdentityAssociationResponse;
import software.amazon.awssdk.services.eks.model.DeleteAccessEntryRequest;
import software.amazon.awssdk.services.eks.model.DeleteAccessEntryResponse;
import software.amazon.awssdk.services.eks.model.DeleteAddonRequest;
import software.amazon.awssdk.services.eks.model.DeleteAddonResponse;
import software.amazon.awssdk.services.eks.model.DeleteClusterRequest;
import software.amazon.awssdk.services.eks.model.DeleteClusterResponse;
import software.amazon.awssdk.services.eks.model.DeleteNodegroupRequest;
import software.amazon.awssdk.services.eks.model.DeleteNodegroupResponse;
import software.amazon.awssdk.services.eks.model.DeletePodIdentityAssociationRequest;
import software.amazon.awssdk.services.eks.model.DeletePodIdentityAssociationResponse;
import software.amazon.awssdk.services.eks.model.DescribeAccessEntryRequest;
import software.amazon.awssdk.services.eks.model.DescribeAccessEntryResponse;
import software.amazon.awssdk.services.eks.model.DescribeAddonRequest;
import software.amazon.awssdk.services.eks.model.DescribeAddonResponse;
import software.amazon.awssdk.services.eks.model.DescribeClusterRequest;
import software.amazon.awssdk.services.eks.model.DescribeClusterResponse;
import software.amazon.awssdk.services.eks.model.DescribeNodegroupRequest;
import software.amazon.awssdk.services.eks.model.DescribeNodegroupResponse;
import software.amazon.awssdk.services.eks.model.DescribePodIdentityAssociationRequest;
import software.amazon.awssdk.services.eks.model.DescribePodIdentityAssociationResponse;
import software.amazon.awssdk.services.eks.model.DescribeUpdateRequest;
import software.amazon.awssdk.services.eks.model.DescribeUpdateResponse;
import software.amazon.awssdk.services.eks.model.DisassociateAccessPolicyRequest;
import software.amazon.awssdk.services.eks.model.DisassociateAccessPolicyResponse;
import software.amazon.awssdk.services.eks.model.ListAccessEntriesRequest;
import software.amazon.awssdk.services.eks.model.ListAccessEntriesResponse;
import software.amazon.awssdk.services.eks.model.ListAddonsRequest;
import software.amazon.awssdk.services.eks.model.ListAddonsResponse;
import software.amazon.awssdk.services.eks.model.ListAssociatedAccessPoliciesRequest;
import software.amazon.awssdk.services.eks.model.ListAssociatedAccessPoliciesResponse;
import software.amazon.awssdk.services.eks.model.ListClustersRequest;
import software.amazon.awssdk.services.eks.model.ListClustersResponse;
import software.amazon.awssdk.services.eks.model.ListNodegroupsRequest;
import software.amazon.awssdk.services.eks.model.ListNodegroupsResponse;
import software.amazon.awssdk.services.eks.model.ListPodIdentityAssociationsRequest;
import software.amazon.awssdk.services.eks.model.ListPodIdentityAssociationsResponse;
import software.amazon.awssdk.services.eks.model.ListTagsForResourceRequest;
import software.amazon.awssdk.services.eks.model.ListTagsForResourceResponse;
import software.amazon.awssdk.services.eks.model.PodIdentityAssociationSummary;
import software.amazon.awssdk.services.eks.model.TagResourceRequest;
import software.amazon.awssdk.services.eks.model.TagResourceResponse;
import software.amazon.awssdk.services.eks.model.UntagResourceRequest;
import software.amazon.awssdk.services.eks.model.UntagResourceResponse;
import software.amazon.awssdk.services.eks.model.UpdateNodegroupConfigRequest;
import software.amazon.awssdk.services.eks.model.UpdateNodegroupConfigResponse;

/**
 * EKS as the SDK sees it, in process: clusters, managed node groups and add-ons with EKS's
 * lifecycles in simulated time, its rules (client request tokens, nothing deleted from under a
 * node group, node groups only on ACTIVE clusters, a cluster quota) and its errors. State is
 * computed from timestamps on each call, so a Wait in the state machine is what makes a cluster
 * ACTIVE. Each created cluster gets its own Kubernetes API server from {@link ApiServers}, stopped
 * when the cluster has finished deleting.
 */
public final class SimulatedEks implements EksClient, Inventory {
    /**
     * CreateCluster to ACTIVE. EKS documents only "several minutes"
     * (https://docs.aws.amazon.com/eks/latest/APIReference/API_CreateCluster.html); published
     * measurements are longer than this: "currently averages 15 minutes" (EKS team, 2021,
     * https://github.com/aws/containers-roadmap/issues/1227) and 13 min 13 s to 16 min 11 s across 21
     * regions (https://easontechtalk.com/unofficial-eks-cluster-creation-performance-across-aws-regions).
     * 10 minutes is the twin's round, optimistic figure: a floor built on it is a lower bound.
     */
    public static final Duration CLUSTER_CREATING = Duration.ofMinutes(10);

    public static final Duration CLUSTER_DELETING = Duration.ofMinutes(4);
    /**
     * CreateNodegroup to ACTIVE, the instances booted and their nodes Ready (the twin's nodes are
     * Ready as the node group turns ACTIVE, {@link ClusterNodes}). Neither EKS's documentation
     * (https://docs.aws.amazon.com/eks/latest/userguide/managed-node-groups.html) nor a measurement
     * found gives a figure for the whole; of it, an EC2 instance's boot to its node Ready was measured
     * at 45 to 65 s on EKS (https://kube.fm/faster-eks-node-and-pod-startup-jan). 4 minutes is the
     * twin's choice, not a citable figure.
     */
    public static final Duration NODEGROUP_CREATING = Duration.ofMinutes(4);

    public static final Duration NODEGROUP_DELETING = Duration.ofMinutes(3);
    /**
     * UpdateNodegroupConfig of the scaling to its update Successful, the node group UPDATING
     * meanwhile ("your node group continues to function during the update",
     * https://docs.aws.amazon.com/eks/latest/APIReference/API_UpdateNodegroupConfig.html). EKS sets
     * the Auto Scaling group's capacity; no figure is documented: 30 s is the twin's choice.
     */
    public static final Duration NODEGROUP_SCALING = Duration.ofSeconds(30);
    /**
     * A scale-out's new nodes Ready after the update: the Auto Scaling group launches the instances
     * ("the number of worker nodes in the node group is updated to the specified size",
     * https://docs.aws.amazon.com/eks/latest/APIReference/API_NodegroupScalingConfig.html), and an
     * instance's boot to its node Ready was measured at 45 to 65 s on EKS
     * (https://kube.fm/faster-eks-node-and-pod-startup-jan). 90 s is the twin's round figure.
     */
    public static final Duration NODES_JOINING = Duration.ofSeconds(90);
    /**
     * DeleteNodegroup to the instances terminating, which ends their billing ("you stop incurring
     * charges for an instance as soon as its state changes to shutting-down or terminated",
     * https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/terminating-instances.html). EKS first sets
     * the Auto Scaling group to zero, then drains each node before its instance is terminated
     * (https://docs.aws.amazon.com/eks/latest/userguide/delete-managed-node-group.html); a node whose
     * run has ended has nothing to drain. No figure is documented: 30 s is the twin's choice. The
     * twin's nodes go at the request (ClusterNodes); the rest of {@link #NODEGROUP_DELETING} is the
     * Auto Scaling group's and EKS's own deletion, which costs nothing.
     */
    public static final Duration INSTANCES_TERMINATING = Duration.ofSeconds(30);
    /**
     * The least time an add-on is CREATING; after that it is ACTIVE once its pods run ({@link AddonWorkloads}).
     * EKS documents no figure (https://docs.aws.amazon.com/eks/latest/userguide/eks-add-ons.html):
     * the twin's choice.
     */
    public static final Duration ADDON_CREATING = Duration.ofMinutes(1);
    /**
     * How long an add-on whose pods do not run stays CREATING before EKS reports it DEGRADED. EKS
     * documents no such timeout (https://docs.aws.amazon.com/eks/latest/userguide/eks-add-ons.html);
     * this is the twin's choice, shorter than the 20 minutes Terraform waits for an add-on
     * (https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/eks_addon#timeouts).
     */
    public static final Duration ADDON_DEGRADED_AFTER = Duration.ofMinutes(15);

    public static final Duration ADDON_DELETING = Duration.ofMinutes(1);
    /** EKS's quotas (https://docs.aws.amazon.com/eks/latest/userguide/service-quotas.html): "Clusters per Region", 100 by default. */
    public static final int DEFAULT_CLUSTER_LIMIT = 100;
    /** "Managed node groups per cluster": 30 (same page). */
    public static final int NODEGROUPS_PER_CLUSTER = 30;
    /** "Nodes per managed node group": 450 (same page). */
    public static final int NODES_PER_NODEGROUP = 450;

    static final String ADDON_NAMESPACE = "kube-system";

    private final Clock clock;
    private final ServiceCalls calls;
    private final EksAccount account;
    private final EksErrors errors;
    private final EksPermissions permissions;
    private final EksAccessEntries accessEntries;
    private final ApiServers servers;
    /** Roles EKS Pod Identity may assume (trusting pods.eks.amazonaws.com); none until told. */
    private java.util.Set<String> podTrustedRoles = java.util.Set.of();

    private int clusterLimit = DEFAULT_CLUSTER_LIMIT;
    /** The account's VPCs, shared with EFS ({@link #sharing}): each cluster's security group is added to them. */
    private volatile SimulatedNetwork network = SimulatedNetwork.stack();

    private Consumer<String> controlPlaneLogs = logGroup -> {};
    /** Node groups' launch templates and the capacity they launch into ({@link #launchingInto}). */
    private volatile NodegroupLaunches launches = NodegroupLaunches.NONE;

    public SimulatedEks(CallLog calls, Clock clock, FaultPlan faults, Authorizer iam, ApiServers servers) {
        this.clock = clock;
        this.calls = new ServiceCalls(AwsService.EKS, calls, faults, iam, this::permissions);
        this.errors = new EksErrors(this.calls);
        this.account = new EksAccount(clock, errors, servers::stop);
        this.permissions = new EksPermissions(account);
        this.accessEntries = new EksAccessEntries(account, errors);
        this.servers = servers;
    }

    /** Every cluster's API server is at {@code kubernetesEndpoint}, which the caller runs. */
    public SimulatedEks(CallLog calls, Clock clock, FaultPlan faults, Authorizer iam, String kubernetesEndpoint) {
        this(calls, clock, faults, iam, ApiServers.at(kubernetesEndpoint));
    }

    /** Without faults or IAM; created clusters have no API server (pre-existing ones bring their own). */
    public SimulatedEks(CallLog calls, Clock clock) {
        this(calls, clock, new FaultPlan(), Authorizer.ALLOW_ALL, ApiServers.NONE);
    }

    private List<IamRequest> permissions(String operation, SdkRequest request) {
        return permissions.of(operation, request);
    }

    /**
     * A cluster that exists before any run (what {@code cluster.mode: existing} connects to): ACTIVE,
     * untagged, authentication mode API_AND_CONFIG_MAP, created by the caller bound to the thread.
     * {@code server} starts its API server and gives the URL, when the endpoint is first given out.
     */
    public void addExistingCluster(String name, java.util.function.Supplier<String> server, String kubernetesVersion) {
        var request = CreateClusterRequest.builder()
                .name(name)
                .version(kubernetesVersion)
                .roleArn("arn:aws:iam::" + AwsService.ACCOUNT + ":role/eks-cluster")
                .accessConfig(a -> a.authenticationMode(AuthenticationMode.API_AND_CONFIG_MAP))
                .build();
        synchronized (account) {
            var cluster = new ClusterRecord(
                    request,
                    true,
                    server,
                    account.ids,
                    Lifecycle.startingAt(clock.instant(), Duration.ZERO, CLUSTER_DELETING));
            account.clusters.put(name, cluster);
            network.addClusterSecurityGroup(cluster.securityGroupId, List.of());
            accessEntries.bootstrap(cluster, Callers.current(), clock.instant());
        }
    }

    /** The cluster's endpoint, its API server started if it had not (as a DescribeCluster would), or empty. */
    Optional<String> endpoint(String cluster) {
        synchronized (account) {
            return Optional.ofNullable(account.clusters.get(cluster)).map(ClusterRecord::endpoint);
        }
    }

    /** This account's services share {@code network}: the security groups of its clusters exist in it. */
    public SimulatedEks sharing(SimulatedNetwork network) {
        this.network = network;
        return this;
    }

    /** An access entry that was there before any run, with one access policy on the whole cluster. */
    public void addExistingAccessEntry(String cluster, String principalArn, String policyArn) {
        accessEntries.create(CreateAccessEntryRequest.builder()
                .clusterName(cluster)
                .principalArn(principalArn)
                .build());
        accessEntries.associate(AssociateAccessPolicyRequest.builder()
                .clusterName(cluster)
                .principalArn(principalArn)
                .policyArn(policyArn)
                .accessScope(s -> s.type(AccessScopeType.CLUSTER))
                .build());
    }

    /**
     * Where the clusters' control-plane logs go: {@code deliver} gets the log group's name when a
     * cluster with control-plane logging is created ({@link SimulatedCloudControl#controlPlaneLogsDelivered}).
     */
    public void deliverControlPlaneLogsTo(Consumer<String> deliver) {
        synchronized (account) {
            this.controlPlaneLogs = deliver;
        }
    }

    /** Node groups launch into this account's capacity, with the launch templates {@code cloudControl} made (call after {@link #sharing}). */
    public SimulatedEks launchingInto(SimulatedCapacity capacity, SimulatedCloudControl cloudControl) {
        this.launches = new NodegroupLaunches(network, capacity, cloudControl::launchTemplateData);
        return this;
    }

    /** The account's cluster quota (EKS's default is 100 per region). */
    public void setClusterLimit(int limit) {
        synchronized (account) {
            this.clusterLimit = limit;
        }
    }

    // ---- clusters

    @Override
    public CreateClusterResponse createCluster(CreateClusterRequest request) {
        return calls.call("CreateCluster", request, () -> {
            synchronized (account) {
                Instant now = account.now();
                String name = request.name();
                account.requireName(name, 100, "name", name);
                account.require(request.roleArn() != null, name, "roleArn is required");
                var vpc = request.resourcesVpcConfig();
                account.require(
                        vpc != null
                                && vpc.hasSubnetIds()
                                && vpc.subnetIds().stream().distinct().count() >= 2,
                        name,
                        "Subnets specified must be in at least two different AZs");
                account.requireSupportedVersion(request.version(), name, now); // EKS's calendar: see EksAccount
                account.requireValidPublicAccessCidrs(name, vpc);
                ClusterRecord existing = account.clusters.get(name);
                if (existing != null) {
                    if (EksAccount.sameRequest(existing.request.clientRequestToken(), existing.request, request)) {
                        return CreateClusterResponse.builder()
                                .cluster(EksViews.cluster(existing, now))
                                .build();
                    }
                    throw errors.clusterExists(name);
                }
                if (account.clusters.size() >= clusterLimit) {
                    throw errors.clusterLimit(name, clusterLimit);
                }
                accessEntries.requireValidAccessConfig(request);
                String endpoint = servers.start(
                        name,
                        request.version() != null ? request.version() : EksViews.defaultVersion(now),
                        !Boolean.FALSE.equals(request.bootstrapSelfManagedAddons()));
                var created = new ClusterRecord(
                        request,
                        false,
                        () -> endpoint,
                        account.ids,
                        Lifecycle.startingAt(now, CLUSTER_CREATING, CLUSTER_DELETING));
                account.clusters.put(name, created);
                network.addClusterSecurityGroup(created.securityGroupId, vpc.subnetIds());
                accessEntries.bootstrap(created, Callers.current(), now);
                if (EksAccount.logsControlPlane(request)) {
                    // EKS sends a cluster's control plane logs to /aws/eks/<cluster>/cluster
                    // (https://docs.aws.amazon.com/eks/latest/userguide/control-plane-logs.html).
                    controlPlaneLogs.accept("/aws/eks/" + name + "/cluster");
                }
                return CreateClusterResponse.builder()
                        .cluster(EksViews.cluster(created, now))
                        .build();
            }
        });
    }

    @Override
    public DescribeClusterResponse describeCluster(DescribeClusterRequest request) {
        return calls.call("DescribeCluster", request, () -> {
            synchronized (account) {
                Instant now = account.now();
                return DescribeClusterResponse.builder()
                        .cluster(EksViews.cluster(account.cluster(request.name()), now))
                        .build();
            }
        });
    }

    @Override
    public DeleteClusterResponse deleteCluster(DeleteClusterRequest request) {
        return calls.call("DeleteCluster", request, () -> {
            synchronized (account) {
                Instant now = account.now();
                ClusterRecord c = account.cluster(request.name());
                if (!c.nodegroups.isEmpty()) {
                    throw errors.nodegroupsAttached(c.name(), c.nodegroups.firstKey());
                }
                c.life = c.life.delete(now);
                return DeleteClusterResponse.builder()
                        .cluster(EksViews.cluster(c, now))
                        .build();
            }
        });
    }

    @Override
    public ListClustersResponse listClusters(ListClustersRequest request) {
        return calls.call("ListClusters", request, () -> {
            synchronized (account) {
                account.now();
                var page =
                        account.page(List.copyOf(account.clusters.keySet()), request.nextToken(), request.maxResults());
                return ListClustersResponse.builder()
                        .clusters(page.items())
                        .nextToken(page.nextToken())
                        .build();
            }
        });
    }

    // ---- node groups

    @Override
    public CreateNodegroupResponse createNodegroup(CreateNodegroupRequest request) {
        return calls.call("CreateNodegroup", request, () -> {
            synchronized (account) {
                Instant now = account.now();
                ClusterRecord c = account.cluster(request.clusterName());
                String name = request.nodegroupName();
                account.requireName(name, 63, "nodegroupName", c.name());
                account.require(request.nodeRole() != null, c.name(), "nodeRole is required");
                account.require(request.hasSubnets() && !request.subnets().isEmpty(), c.name(), "subnets are required");
                account.requireSupportedVersion(request.version(), c.name(), now); // EKS's calendar: see EksAccount
                NodegroupRecord existing = c.nodegroups.get(name);
                if (existing != null) {
                    if (EksAccount.sameRequest(existing.request.clientRequestToken(), existing.request, request)) {
                        return CreateNodegroupResponse.builder()
                                .nodegroup(EksViews.nodegroup(existing, now))
                                .build();
                    }
                    throw errors.nodegroupExists(c.name(), name);
                }
                if (c.nodegroups.size() >= NODEGROUPS_PER_CLUSTER) {
                    throw errors.nodegroupLimit(c.name(), NODEGROUPS_PER_CLUSTER);
                }
                var scaling = request.scalingConfig();
                account.require(
                        scaling == null || scaling.maxSize() == null || scaling.maxSize() <= NODES_PER_NODEGROUP,
                        c.name(),
                        "maxSize " + (scaling == null ? null : scaling.maxSize()) + " is over the quota of "
                                + NODES_PER_NODEGROUP + " nodes per managed node group");
                launches.check(request, account, c.name());
                account.requireActive(c, now);
                String version = request.version() != null ? request.version() : EksViews.version(c);
                var created = new NodegroupRecord(
                        request,
                        version,
                        account.ids,
                        Lifecycle.startingAt(now, NODEGROUP_CREATING, NODEGROUP_DELETING));
                created.launchFailure =
                        launches.launch(request, created.arn(), now).orElse(null);
                c.nodegroups.put(name, created);
                return CreateNodegroupResponse.builder()
                        .nodegroup(EksViews.nodegroup(created, now))
                        .build();
            }
        });
    }

    @Override
    public DescribeNodegroupResponse describeNodegroup(DescribeNodegroupRequest request) {
        return calls.call("DescribeNodegroup", request, () -> {
            synchronized (account) {
                Instant now = account.now();
                var n = account.nodegroup(request.clusterName(), request.nodegroupName());
                return DescribeNodegroupResponse.builder()
                        .nodegroup(EksViews.nodegroup(n, now))
                        .build();
            }
        });
    }

    @Override
    public DeleteNodegroupResponse deleteNodegroup(DeleteNodegroupRequest request) {
        return calls.call("DeleteNodegroup", request, () -> {
            synchronized (account) {
                Instant now = account.now();
                var n = account.nodegroup(request.clusterName(), request.nodegroupName());
                n.life = n.life.delete(now);
                launches.release(n.arn());
                return DeleteNodegroupResponse.builder()
                        .nodegroup(EksViews.nodegroup(n, now))
                        .build();
            }
        });
    }

    /**
     * Changes a node group's scaling (the only part of UpdateNodegroupConfig the twin takes): EKS
     * refuses a node group that is not ACTIVE (an update is under way, or it is being created or
     * deleted) and sizes out of order (0 <= minSize <= desiredSize <= maxSize, maxSize >= 1;
     * https://docs.aws.amazon.com/eks/latest/APIReference/API_NodegroupScalingConfig.html). The same
     * client request token answers the same update.
     */
    @Override
    public UpdateNodegroupConfigResponse updateNodegroupConfig(UpdateNodegroupConfigRequest request) {
        return calls.call("UpdateNodegroupConfig", request, () -> {
            synchronized (account) {
                Instant now = account.now();
                var n = account.nodegroup(request.clusterName(), request.nodegroupName());
                String token = request.clientRequestToken();
                if (token != null) {
                    for (var s : n.scalings) {
                        if (token.equals(s.token())) {
                            return UpdateNodegroupConfigResponse.builder()
                                    .update(EksViews.scalingUpdate(s, now))
                                    .build();
                        }
                    }
                }
                if (EksViews.nodegroup(n, now).status()
                        != software.amazon.awssdk.services.eks.model.NodegroupStatus.ACTIVE) {
                    throw errors.nodegroupNotActive(request.clusterName(), request.nodegroupName());
                }
                var current = n.scaling();
                var asked = request.scalingConfig();
                if (asked == null) {
                    throw errors.invalidParameter(request.clusterName(), "scalingConfig is required");
                }
                int min = asked.minSize() != null ? asked.minSize() : current.minSize();
                int max = asked.maxSize() != null ? asked.maxSize() : current.maxSize();
                int desired = asked.desiredSize() != null ? asked.desiredSize() : current.desiredSize();
                if (min < 0 || max < 1 || desired < min || desired > max) {
                    throw errors.invalidParameter(
                            request.clusterName(),
                            "Invalid scaling configuration: minSize " + min + ", desiredSize " + desired + ", maxSize "
                                    + max + " (0 <= minSize <= desiredSize <= maxSize, maxSize >= 1)");
                }
                var scaling = new EksRecords.Scaling(
                        EksRecords.uuid(account.ids),
                        token,
                        now,
                        software.amazon.awssdk.services.eks.model.NodegroupScalingConfig.builder()
                                .minSize(min)
                                .maxSize(max)
                                .desiredSize(desired)
                                .build());
                n.scalings.add(scaling);
                return UpdateNodegroupConfigResponse.builder()
                        .update(EksViews.scalingUpdate(scaling, now))
                        .build();
            }
        });
    }

    /** A node group's scaling update (the only updates the twin makes). */
    @Override
    public DescribeUpdateResponse describeUpdate(DescribeUpdateRequest request) {
        return calls.call("DescribeUpdate", request, () -> {
            synchronized (account) {
                Instant now = account.now();
                var n = account.nodegroup(request.name(), request.nodegroupName());
                return n.scalings.stream()
                        .filter(s -> s.updateId().equals(request.updateId()))
                        .findFirst()
                        .map(s -> DescribeUpdateResponse.builder()
                                .update(EksViews.scalingUpdate(s, now))
                                .build())
                        .orElseThrow(() -> errors.updateNotFound(request.name(), request.updateId()));
            }
        });
    }

    @Override
    public ListNodegroupsResponse listNodegroups(ListNodegroupsRequest request) {
        return calls.call("ListNodegroups", request, () -> {
            synchronized (account) {
                account.now();
                var c = account.cluster(request.clusterName());
                var page = account.page(List.copyOf(c.nodegroups.keySet()), request.nextToken(), request.maxResults());
                return ListNodegroupsResponse.builder()
                        .nodegroups(page.items())
                        .nextToken(page.nextToken())
                        .build();
            }
        });
    }

    // ---- add-ons and their Pod Identity associations

    @Override
    public CreateAddonResponse createAddon(CreateAddonRequest request) {
        return calls.call("CreateAddon", request, () -> {
            synchronized (account) {
                Instant now = account.now();
                ClusterRecord c = account.cluster(request.clusterName());
                String name = request.addonName();
                account.require(name != null && !name.isBlank(), c.name(), "addonName is required");
                AddonRecord existing = c.addons.get(name);
                if (existing != null) {
                    if (EksAccount.sameRequest(existing.request.clientRequestToken(), existing.request, request)) {
                        return CreateAddonResponse.builder()
                                .addon(addonView(existing, now))
                                .build();
                    }
                    throw errors.addonExists(c.name(), name);
                }
                account.requireActive(c, now);
                for (var association : request.podIdentityAssociations()) {
                    account.require(
                            association.serviceAccount() != null && association.roleArn() != null,
                            c.name(),
                            "podIdentityAssociations need a serviceAccount and a roleArn");
                }
                String version = request.addonVersion() != null ? request.addonVersion() : "v1.0.0-eksbuild.1";
                var created = new AddonRecord(
                        request, version, account.ids, Lifecycle.startingAt(now, ADDON_CREATING, ADDON_DELETING));
                for (var association : request.podIdentityAssociations()) {
                    String id = account.ids.next("a-", 17);
                    created.podIdentities.add(new AddonPodIdentity(
                            c.name(),
                            ADDON_NAMESPACE,
                            association.serviceAccount(),
                            association.roleArn(),
                            id,
                            EksRecords.ARN_PREFIX + "podidentityassociation/" + c.name() + "/" + id,
                            created.arn(),
                            now));
                }
                c.addons.put(name, created);
                servers.installAddon(c.name(), name);
                return CreateAddonResponse.builder()
                        .addon(addonView(created, now))
                        .build();
            }
        });
    }

    @Override
    public DescribeAddonResponse describeAddon(DescribeAddonRequest request) {
        return calls.call("DescribeAddon", request, () -> {
            synchronized (account) {
                Instant now = account.now();
                return DescribeAddonResponse.builder()
                        .addon(addonView(account.addon(request.clusterName(), request.addonName()), now))
                        .build();
            }
        });
    }

    @Override
    public DeleteAddonResponse deleteAddon(DeleteAddonRequest request) {
        return calls.call("DeleteAddon", request, () -> {
            synchronized (account) {
                Instant now = account.now();
                AddonRecord a = account.addon(request.clusterName(), request.addonName());
                if (!a.life.isDeleting() && !Boolean.TRUE.equals(request.preserve())) {
                    servers.removeAddon(a.request.clusterName(), a.request.addonName());
                }
                a.life = a.life.delete(now);
                return DeleteAddonResponse.builder().addon(addonView(a, now)).build();
            }
        });
    }

    /** The add-on as DescribeAddon shows it: its status from its pods on the cluster's API server. */
    private software.amazon.awssdk.services.eks.model.Addon addonView(AddonRecord a, Instant now) {
        java.util.Optional<Boolean> running = a.life.phase(now) == Lifecycle.Phase.READY
                ? servers.addonRunning(a.request.clusterName(), a.request.addonName())
                : java.util.Optional.empty();
        return EksViews.addon(a, now, running);
    }

    @Override
    public ListAddonsResponse listAddons(ListAddonsRequest request) {
        return calls.call("ListAddons", request, () -> {
            synchronized (account) {
                account.now();
                var c = account.cluster(request.clusterName());
                var page = account.page(List.copyOf(c.addons.keySet()), request.nextToken(), request.maxResults());
                return ListAddonsResponse.builder()
                        .addons(page.items())
                        .nextToken(page.nextToken())
                        .build();
            }
        });
    }

    @Override
    public ListPodIdentityAssociationsResponse listPodIdentityAssociations(ListPodIdentityAssociationsRequest request) {
        return calls.call("ListPodIdentityAssociations", request, () -> {
            synchronized (account) {
                account.now();
                var c = account.cluster(request.clusterName());
                var matching = EksAccount.podIdentities(c)
                        .filter(p -> request.namespace() == null
                                || request.namespace().equals(p.namespace()))
                        .filter(p -> request.serviceAccount() == null
                                || request.serviceAccount().equals(p.serviceAccount()))
                        .map(p -> PodIdentityAssociationSummary.builder()
                                .clusterName(p.clusterName())
                                .namespace(p.namespace())
                                .serviceAccount(p.serviceAccount())
                                .associationArn(p.associationArn())
                                .associationId(p.associationId())
                                .ownerArn(p.ownerArn())
                                .build())
                        .toList();
                var page = account.page(matching, request.nextToken(), request.maxResults());
                return ListPodIdentityAssociationsResponse.builder()
                        .associations(page.items())
                        .nextToken(page.nextToken())
                        .build();
            }
        });
    }

    /**
     * https://docs.aws.amazon.com/eks/latest/APIReference/API_CreatePodIdentityAssociation.html: one
     * association per service account in a namespace of a cluster (a second is
     * ResourceInUseException; the same request with the same clientRequestToken is a retry and
     * answers the first), on an ACTIVE cluster, for a role that EKS Pod Identity may assume: its trust
     * policy lets pods.eks.amazonaws.com sts:AssumeRole and sts:TagSession
     * (https://docs.aws.amazon.com/eks/latest/userguide/pod-id-role.html). The namespace and service
     * account need not exist yet.
     */
    @Override
    public CreatePodIdentityAssociationResponse createPodIdentityAssociation(
            CreatePodIdentityAssociationRequest request) {
        return calls.call("CreatePodIdentityAssociation", request, () -> {
            synchronized (account) {
                Instant now = account.now();
                ClusterRecord c = account.cluster(request.clusterName());
                account.require(
                        request.namespace() != null && !request.namespace().isBlank(),
                        c.name(),
                        "namespace is required");
                account.require(
                        request.serviceAccount() != null
                                && !request.serviceAccount().isBlank(),
                        c.name(),
                        "serviceAccount is required");
                account.require(request.roleArn() != null, c.name(), "roleArn is required");
                for (var existing : c.podIdentities.values()) {
                    if (EksAccount.sameRequest(request.clientRequestToken(), existing.request, request)) {
                        return CreatePodIdentityAssociationResponse.builder()
                                .association(podIdentityView(existing))
                                .build();
                    }
                }
                if (EksAccount.podIdentities(c)
                        .anyMatch(p -> p.namespace().equals(request.namespace())
                                && p.serviceAccount().equals(request.serviceAccount()))) {
                    throw errors.podIdentityExists(c.name(), request.namespace(), request.serviceAccount());
                }
                account.requireActive(c, now);
                account.require(
                        podTrustedRoles.contains(request.roleArn()),
                        c.name(),
                        "Role " + request.roleArn() + " cannot be assumed by the EKS Pod Identity service: its trust"
                                + " policy must allow pods.eks.amazonaws.com sts:AssumeRole and sts:TagSession");
                String id = account.ids.next("a-", 17);
                var created = new EksRecords.PodIdentityRecord(
                        request,
                        new AddonPodIdentity(
                                c.name(),
                                request.namespace(),
                                request.serviceAccount(),
                                request.roleArn(),
                                id,
                                EksRecords.ARN_PREFIX + "podidentityassociation/" + c.name() + "/" + id,
                                null,
                                now));
                c.podIdentities.put(id, created);
                return CreatePodIdentityAssociationResponse.builder()
                        .association(podIdentityView(created))
                        .build();
            }
        });
    }

    @Override
    public DescribePodIdentityAssociationResponse describePodIdentityAssociation(
            DescribePodIdentityAssociationRequest request) {
        return calls.call("DescribePodIdentityAssociation", request, () -> {
            synchronized (account) {
                account.now();
                ClusterRecord c = account.cluster(request.clusterName());
                var found = c.podIdentities.get(request.associationId());
                if (found == null) {
                    throw errors.podIdentityNotFound(c.name(), request.associationId());
                }
                return DescribePodIdentityAssociationResponse.builder()
                        .association(podIdentityView(found))
                        .build();
            }
        });
    }

    /** Deleted at once (the API answers the association it deleted); an add-on's associations go with the add-on. */
    @Override
    public DeletePodIdentityAssociationResponse deletePodIdentityAssociation(
            DeletePodIdentityAssociationRequest request) {
        return calls.call("DeletePodIdentityAssociation", request, () -> {
            synchronized (account) {
                account.now();
                ClusterRecord c = account.cluster(request.clusterName());
                var found = c.podIdentities.remove(request.associationId());
                if (found == null) {
                    throw errors.podIdentityNotFound(c.name(), request.associationId());
                }
                return DeletePodIdentityAssociationResponse.builder()
                        .association(podIdentityView(found))
                        .build();
            }
        });
    }

    private static software.amazon.awssdk.services.eks.model.PodIdentityAssociation podIdentityView(
            EksRecords.PodIdentityRecord record) {
        AddonPodIdentity a = record.association;
        return software.amazon.awssdk.services.eks.model.PodIdentityAssociation.builder()
                .clusterName(a.clusterName())
                .namespace(a.namespace())
                .serviceAccount(a.serviceAccount())
                .roleArn(a.roleArn())
                .associationArn(a.associationArn())
                .associationId(a.associationId())
                .tags(record.tags)
                .createdAt(a.createdAt())
                .modifiedAt(a.createdAt())
                .build();
    }

    /** The roles whose trust policy lets EKS Pod Identity assume them (template.yaml's, in local mode). */
    public SimulatedEks trustingPods(java.util.Set<String> roleArns) {
        synchronized (account) {
            podTrustedRoles = java.util.Set.copyOf(roleArns);
        }
        return this;
    }

    /** Every Pod Identity association that exists, across clusters. */
    public List<AddonPodIdentity> podIdentityAssociations() {
        synchronized (account) {
            account.now();
            return account.podIdentityAssociations();
        }
    }

    // ---- access entries (EksAccessEntries)

    @Override
    public CreateAccessEntryResponse createAccessEntry(CreateAccessEntryRequest request) {
        return calls.call("CreateAccessEntry", request, () -> accessEntries.create(request));
    }

    @Override
    public DescribeAccessEntryResponse describeAccessEntry(DescribeAccessEntryRequest request) {
        return calls.call("DescribeAccessEntry", request, () -> accessEntries.describe(request));
    }

    @Override
    public ListAccessEntriesResponse listAccessEntries(ListAccessEntriesRequest request) {
        return calls.call("ListAccessEntries", request, () -> accessEntries.list(request));
    }

    @Override
    public DeleteAccessEntryResponse deleteAccessEntry(DeleteAccessEntryRequest request) {
        return calls.call("DeleteAccessEntry", request, () -> accessEntries.delete(request));
    }

    @Override
    public AssociateAccessPolicyResponse associateAccessPolicy(AssociateAccessPolicyRequest request) {
        return calls.call("AssociateAccessPolicy", request, () -> accessEntries.associate(request));
    }

    @Override
    public DisassociateAccessPolicyResponse disassociateAccessPolicy(DisassociateAccessPolicyRequest request) {
        return calls.call("DisassociateAccessPolicy", request, () -> accessEntries.disassociate(request));
    }

    @Override
    public ListAssociatedAccessPoliciesResponse listAssociatedAccessPolicies(
            ListAssociatedAccessPoliciesRequest request) {
        return calls.call("ListAssociatedAccessPolicies", request, () -> accessEntries.listAssociated(request));
    }

    /** The access entries, for the API server's checks ({@link EksApiServerGate}). */
    EksAccessEntries accessEntries() {
        return accessEntries;
    }

    // ---- tags

    @Override
    public TagResourceResponse tagResource(TagResourceRequest request) {
        return calls.call("TagResource", request, () -> {
            synchronized (account) {
                account.now();
                account.tagsOf(request.resourceArn()).putAll(request.tags());
                return TagResourceResponse.builder().build();
            }
        });
    }

    @Override
    public UntagResourceResponse untagResource(UntagResourceRequest request) {
        return calls.call("UntagResource", request, () -> {
            synchronized (account) {
                account.now();
                account.tagsOf(request.resourceArn()).keySet().removeAll(request.tagKeys());
                return UntagResourceResponse.builder().build();
            }
        });
    }

    @Override
    public ListTagsForResourceResponse listTagsForResource(ListTagsForResourceRequest request) {
        return calls.call("ListTagsForResource", request, () -> {
            synchronized (account) {
                account.now();
                return ListTagsForResourceResponse.builder()
                        .tags(account.tagsOf(request.resourceArn()))
                        .build();
            }
        });
    }

    // ---- what the clusters' API servers see

    /**
     * The node groups of {@code cluster} whose instances run (ACTIVE), as their nodes see them;
     * empty for a cluster that does not exist.
     */
    List<ClusterNodes.Group> activeNodegroups(String cluster) {
        synchronized (account) {
            return activeNodegroups(cluster, account.now());
        }
    }

    /**
     * The instants in ({@code after}, {@code until}] at which a node group of {@code cluster}
     * turned ACTIVE, in order: the cluster catches up at each, so that its nodes are Ready, and
     * DaemonSets start their pods there, when EKS says, not when somebody next looks.
     */
    List<Instant> nodegroupsActiveBetween(String cluster, Instant after, Instant until) {
        synchronized (account) {
            account.now();
            ClusterRecord c = account.clusters.get(cluster);
            if (c == null) {
                return List.of();
            }
            return c.nodegroups.values().stream()
                    .flatMap(n -> java.util.stream.Stream.concat(
                            java.util.stream.Stream.of(n.life.readyAt()),
                            // Nodes come and go with each scaling change too.
                            n.scalings.stream().flatMap(s -> java.util.stream.Stream.of(s.at(), s.joinedAt()))))
                    .filter(at -> at.isAfter(after) && !at.isAfter(until))
                    .sorted()
                    .distinct()
                    .toList();
        }
    }

    /** As {@link #activeNodegroups(String)}, as they were {@code now} (not later than the clock). */
    List<ClusterNodes.Group> activeNodegroups(String cluster, Instant now) {
        synchronized (account) {
            ClusterRecord c = account.clusters.get(cluster);
            if (c == null) {
                return List.of();
            }
            return c.nodegroups.values().stream()
                    .map(n -> EksViews.nodegroup(n, now))
                    // An update leaves the nodes running (UpdateNodegroupConfig: "your node group continues to
                    // function").
                    .filter(n -> n.status() == software.amazon.awssdk.services.eks.model.NodegroupStatus.ACTIVE
                            || n.status() == software.amazon.awssdk.services.eks.model.NodegroupStatus.UPDATING)
                    .map(n -> new ClusterNodes.Group(
                            n.nodegroupName(),
                            launches.instanceType(c.nodegroups.get(n.nodegroupName()).request),
                            c.nodegroups.get(n.nodegroupName()).nodesAt(now),
                            n.capacityTypeAsString(),
                            n.hasLabels() ? n.labels() : java.util.Map.of(),
                            n.hasTaints()
                                    ? n.taints().stream()
                                            .map(t -> new io.fabric8.kubernetes.api.model.Taint(
                                                    switch (t.effect()) {
                                                        case NO_EXECUTE -> "NoExecute";
                                                        case PREFER_NO_SCHEDULE -> "PreferNoSchedule";
                                                        default -> "NoSchedule";
                                                    },
                                                    t.key(),
                                                    null,
                                                    t.value()))
                                            .toList()
                                    : List.of(),
                            n.subnets().stream()
                                    .map(network::subnet)
                                    .flatMap(java.util.Optional::stream)
                                    .map(SimulatedNetwork.Subnet::zoneName)
                                    .toList(),
                            launches.efaInterfaces(c.nodegroups.get(n.nodegroupName()).request),
                            n.nodeRole(),
                            launches.diskGiB(c.nodegroups.get(n.nodegroupName()).request)))
                    .toList();
        }
    }

    /** The clusters that exist (any status), by name. */
    List<String> clusterNames() {
        synchronized (account) {
            account.now();
            return List.copyOf(account.clusters.keySet());
        }
    }

    /**
     * A node group that exists on a pre-existing cluster ({@link #addExistingCluster}): ACTIVE,
     * tagged as given, in the first two subnets of the account's network.
     */
    public void addExistingNodegroup(
            String cluster,
            String name,
            String instanceType,
            int nodes,
            int minNodes,
            int maxNodes,
            java.util.Map<String, String> labels,
            List<software.amazon.awssdk.services.eks.model.Taint> taints,
            java.util.Map<String, String> tags,
            int diskGiB) {
        synchronized (account) {
            ClusterRecord c = account.cluster(cluster);
            var request = CreateNodegroupRequest.builder()
                    .diskSize(diskGiB)
                    .clusterName(cluster)
                    .nodegroupName(name)
                    .nodeRole("arn:aws:iam::" + AwsService.ACCOUNT + ":role/eks-node")
                    .subnets(network.subnets().stream()
                            .limit(2)
                            .map(SimulatedNetwork.Subnet::id)
                            .toList())
                    .instanceTypes(instanceType)
                    .scalingConfig(s -> s.minSize(minNodes).maxSize(maxNodes).desiredSize(nodes))
                    .labels(labels)
                    .taints(taints)
                    .tags(tags)
                    .build();
            c.nodegroups.put(
                    name,
                    new NodegroupRecord(
                            request,
                            EksViews.version(c),
                            account.ids,
                            Lifecycle.startingAt(clock.instant(), Duration.ZERO, NODEGROUP_DELETING)));
        }
    }

    // ---- read-only views for the benchmarks

    /**
     * A cluster's (nodegroup null) or a managed node group's life in simulated time: when it was
     * asked for, when it turned ACTIVE, when its deletion was asked, when a node group's instances
     * stopped being billed ({@link #INSTANCES_TERMINATING} after that; null for a cluster or not yet)
     * and when it is gone (null: not yet). A pre-existing one was ACTIVE before any run.
     */
    public record Lifetime(
            String cluster,
            String nodegroup,
            String instanceType,
            int nodes,
            Instant created,
            Instant active,
            Instant deleteRequested,
            Instant instancesTerminated,
            Instant gone) {}

    /** Every cluster and node group that exists now, with its {@link Lifetime}. */
    public List<Lifetime> lifetimes() {
        synchronized (account) {
            account.now();
            List<Lifetime> all = new java.util.ArrayList<>();
            for (ClusterRecord c : account.clusters.values()) {
                all.add(lifetime(c.name(), null, null, 0, c.life));
                for (NodegroupRecord n : c.nodegroups.values()) {
                    var request = n.request;
                    String type = request.hasInstanceTypes()
                                    && !request.instanceTypes().isEmpty()
                            ? request.instanceTypes().getFirst()
                            : null;
                    int nodes = request.scalingConfig() == null
                                    || request.scalingConfig().desiredSize() == null
                            ? 0
                            : request.scalingConfig().desiredSize();
                    all.add(lifetime(c.name(), request.nodegroupName(), type, nodes, n.life));
                }
            }
            return all;
        }
    }

    private static Lifetime lifetime(String cluster, String nodegroup, String type, int nodes, Lifecycle life) {
        return new Lifetime(
                cluster,
                nodegroup,
                type,
                nodes,
                life.createdAt(),
                life.readyAt(),
                life.deleteRequestedAt(),
                nodegroup != null && life.isDeleting()
                        ? life.deleteRequestedAt().plus(INSTANCES_TERMINATING)
                        : null,
                life.isDeleting() ? life.deleteRequestedAt().plus(life.deleting()) : null);
    }

    // ---- inventory

    @Override
    public List<CloudResource> resources() {
        synchronized (account) {
            account.now();
            return account.resources();
        }
    }

    @Override
    public String serviceName() {
        return SERVICE_NAME;
    }

    @Override
    public void close() {}
}
