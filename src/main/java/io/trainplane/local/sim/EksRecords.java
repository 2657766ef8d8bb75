package io.trainplane.local.sim;

import io.trainplane.local.iam.PrincipalArn;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awssdk.services.eks.model.AssociatedAccessPolicy;
import software.amazon.awssdk.services.eks.model.CreateAccessEntryRequest;
import software.amazon.awssdk.services.eks.model.CreateAddonRequest;
import software.amazon.awssdk.services.eks.model.CreateClusterRequest;
import software.amazon.awssdk.services.eks.model.CreateNodegroupRequest;
import software.amazon.awssdk.services.eks.model.NodegroupScalingConfig;

/** What the simulated EKS remembers about each resource: the request that made it, its life, its tags. */
final class EksRecords {
    private EksRecords() {}

    static final String ARN_PREFIX = "arn:aws:eks:" + AwsService.REGION + ":" + AwsService.ACCOUNT + ":";

    /** A cluster: created by a run, or there before any run ({@code preExisting}, untagged). */
    static final class ClusterRecord {
        final CreateClusterRequest request;
        final boolean preExisting;
        /** Starts the cluster's API server and gives its URL (see {@link #endpoint}). */
        private final java.util.function.Supplier<String> server;

        private String endpoint;
        final String id;
        final String securityGroupId;
        final String vpcId;
        final Map<String, String> tags = new TreeMap<>();
        final TreeMap<String, NodegroupRecord> nodegroups = new TreeMap<>();
        final TreeMap<String, AddonRecord> addons = new TreeMap<>();
        /** By principal ARN: EKS allows one entry per principal and cluster. */
        final TreeMap<String, AccessEntryRecord> accessEntries = new TreeMap<>();
        /** Pod Identity associations made with CreatePodIdentityAssociation (not an add-on's), by association id. */
        final TreeMap<String, PodIdentityRecord> podIdentities = new TreeMap<>();
        /** The IAM principal that created the cluster (its bootstrap admin), or null when unknown. */
        String creatorArn;

        Lifecycle life;

        ClusterRecord(
                CreateClusterRequest request,
                boolean preExisting,
                java.util.function.Supplier<String> server,
                SimulatedIds ids,
                Lifecycle life) {
            this.request = request;
            this.preExisting = preExisting;
            this.server = server;
            // A created cluster's server started with it; a pre-existing one's starts on first use.
            this.endpoint = preExisting ? null : server.get();
            this.id = ids.next("", 32).toUpperCase(Locale.ROOT);
            this.securityGroupId = ids.next("sg-", 17);
            this.vpcId = ids.next("vpc-", 17);
            this.life = life;
            if (request.hasTags()) {
                tags.putAll(request.tags());
            }
        }

        String name() {
            return request.name();
        }

        /**
         * The API server's URL. A pre-existing cluster's server starts when its endpoint is first
         * given out: most local runs never reach the demo cluster, and starting it cost each of
         * them a second. Called under the account's lock.
         */
        String endpoint() {
            if (endpoint == null) {
                endpoint = server.get();
            }
            return endpoint;
        }

        /** The endpoint if the API server has started, else null (no request can reach a server that has not). */
        String startedEndpoint() {
            return endpoint;
        }

        String arn() {
            return ARN_PREFIX + "cluster/" + name();
        }
    }

    static final class NodegroupRecord {
        final CreateNodegroupRequest request;
        final String version;
        final String uuid;
        final String autoScalingGroup;
        final Map<String, String> tags = new TreeMap<>();
        Lifecycle life;
        /** EC2's error launching the instances ({@link NodegroupLaunches}): the node group ends CREATE_FAILED; null when they launch. */
        String launchFailure;
        /** UpdateNodegroupConfig's scaling changes, in the order asked. */
        final List<Scaling> scalings = new ArrayList<>();

        NodegroupRecord(CreateNodegroupRequest request, String version, SimulatedIds ids, Lifecycle life) {
            this.request = request;
            this.version = version;
            this.uuid = uuid(ids);
            this.autoScalingGroup = "eks-" + request.nodegroupName() + "-" + uuid;
            this.life = life;
            if (request.hasTags()) {
                tags.putAll(request.tags());
            }
        }

        String arn() {
            return ARN_PREFIX + "nodegroup/" + request.clusterName() + "/" + request.nodegroupName() + "/" + uuid;
        }

        /** The scaling configuration now: the last UpdateNodegroupConfig's, or the creation's. */
        NodegroupScalingConfig scaling() {
            if (!scalings.isEmpty()) {
                return scalings.getLast().config();
            }
            NodegroupScalingConfig asked = request.scalingConfig();
            return NodegroupScalingConfig.builder()
                    .minSize(asked == null || asked.minSize() == null ? 1 : asked.minSize())
                    .maxSize(asked == null || asked.maxSize() == null ? 2 : asked.maxSize())
                    .desiredSize(asked == null || asked.desiredSize() == null ? 2 : asked.desiredSize())
                    .build();
        }

        /**
         * The nodes that run at {@code now}: the creation's desired size, then each scaling change in
         * turn. A scale-in takes nodes away at once (the twin's nodes go at the request, as at
         * DeleteNodegroup); a scale-out's nodes are Ready {@link SimulatedEks#NODES_JOINING} after it.
         */
        int nodesAt(Instant now) {
            NodegroupScalingConfig asked = request.scalingConfig();
            int nodes = asked == null || asked.desiredSize() == null ? 2 : asked.desiredSize();
            for (Scaling s : scalings) {
                int desired = s.config().desiredSize();
                if (desired < nodes ? !now.isBefore(s.at()) : !now.isBefore(s.joinedAt())) {
                    nodes = desired;
                }
            }
            return nodes;
        }

        /** The update under way at {@code now}, if any: the node group is UPDATING while it is. */
        Optional<Scaling> updating(Instant now) {
            return scalings.isEmpty() || !now.isBefore(scalings.getLast().doneAt())
                    ? Optional.empty()
                    : Optional.of(scalings.getLast());
        }
    }

    /**
     * One UpdateNodegroupConfig of a node group's scaling: its update's id and client token, when it
     * was asked, and the configuration it asked for.
     */
    record Scaling(String updateId, String token, Instant at, NodegroupScalingConfig config) {
        /** When the update is Successful and the node group ACTIVE again. */
        Instant doneAt() {
            return at.plus(SimulatedEks.NODEGROUP_SCALING);
        }

        /** When a scale-out's new nodes are Ready. */
        Instant joinedAt() {
            return at.plus(SimulatedEks.NODES_JOINING);
        }
    }

    static final class AddonRecord {
        final CreateAddonRequest request;
        final String version;
        final String uuid;
        final List<AddonPodIdentity> podIdentities = new ArrayList<>();
        final Map<String, String> tags = new TreeMap<>();
        Lifecycle life;
        /** Whether it has been ACTIVE: from then on, pods that stop running make it DEGRADED at once. */
        boolean wasActive;

        AddonRecord(CreateAddonRequest request, String version, SimulatedIds ids, Lifecycle life) {
            this.request = request;
            this.version = version;
            this.uuid = uuid(ids);
            this.life = life;
            if (request.hasTags()) {
                tags.putAll(request.tags());
            }
        }

        String arn() {
            return ARN_PREFIX + "addon/" + request.clusterName() + "/" + request.addonName() + "/" + uuid;
        }
    }

    /** An access entry: an IAM principal's way into the cluster's Kubernetes API, with the access policies associated to it. */
    static final class AccessEntryRecord {
        final String cluster;
        final PrincipalArn principal;
        final String type;
        final String username;
        final List<String> kubernetesGroups;
        /** The request that made it, or null for the entry EKS made for the cluster's creator. */
        final CreateAccessEntryRequest request;

        final String uuid;
        final Instant createdAt;
        final Map<String, String> tags = new TreeMap<>();
        /** By policy ARN. */
        final Map<String, AssociatedAccessPolicy> policies = new TreeMap<>();

        AccessEntryRecord(
                String cluster,
                PrincipalArn principal,
                String type,
                String username,
                List<String> kubernetesGroups,
                CreateAccessEntryRequest request,
                SimulatedIds ids,
                Instant createdAt) {
            this.cluster = cluster;
            this.principal = principal;
            this.type = type;
            this.username = username;
            this.kubernetesGroups = List.copyOf(kubernetesGroups);
            this.request = request;
            if (request != null && request.hasTags()) {
                tags.putAll(request.tags());
            }
            this.uuid = uuid(ids);
            this.createdAt = createdAt;
        }

        String arn() {
            return accessEntryArn(cluster, principal, uuid);
        }
    }

    /** access-entry/CLUSTER/role|user/ACCOUNT/NAME/UUID, as the Service Authorization Reference gives it. */
    static String accessEntryArn(String cluster, PrincipalArn principal, String uuid) {
        return ARN_PREFIX + "access-entry/" + cluster + "/" + principal.type() + "/" + principal.account() + "/"
                + principal.name() + "/" + uuid;
    }

    static String uuid(SimulatedIds ids) {
        String hex = ids.next("", 32);
        return hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16) + "-"
                + hex.substring(16, 20) + "-" + hex.substring(20, 32);
    }

    /** A Pod Identity association of its own (CreatePodIdentityAssociation), with its request and tags. */
    static final class PodIdentityRecord {
        final software.amazon.awssdk.services.eks.model.CreatePodIdentityAssociationRequest request;
        final AddonPodIdentity association;
        final Map<String, String> tags = new TreeMap<>();

        PodIdentityRecord(
                software.amazon.awssdk.services.eks.model.CreatePodIdentityAssociationRequest request,
                AddonPodIdentity association) {
            this.request = request;
            this.association = association;
            if (request.hasTags()) {
                tags.putAll(request.tags());
            }
        }
    }
}
