package io.trainplane.local.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.eks.model.CreateAddonRequest;
import software.amazon.awssdk.services.eks.model.CreateClusterRequest;
import software.amazon.awssdk.services.eks.model.CreateNodegroupRequest;

/** What the simulated EKS remembers about each resource: the request that made it, its life, its tags. */
final class EksRecords {
    private EksRecords() {}

    static final String ARN_PREFIX = "arn:aws:eks:" + AwsService.REGION + ":" + AwsService.ACCOUNT + ":";

    /** A cluster: created by a run, or there before any run ({@code preExisting}, untagged). */
    static final class ClusterRecord {
        final CreateClusterRequest request;
        final boolean preExisting;
        final String endpoint;
        final String id;
        final String securityGroupId;
        final String vpcId;
        final Map<String, String> tags = new TreeMap<>();
        final TreeMap<String, NodegroupRecord> nodegroups = new TreeMap<>();
        final TreeMap<String, AddonRecord> addons = new TreeMap<>();
        Lifecycle life;

        ClusterRecord(CreateClusterRequest request, boolean preExisting, String endpoint, SimulatedIds ids, Lifecycle life) {
            this.request = request;
            this.preExisting = preExisting;
            this.endpoint = endpoint;
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
    }

    static final class AddonRecord {
        final CreateAddonRequest request;
        final String version;
        final String uuid;
        final List<AddonPodIdentity> podIdentities = new ArrayList<>();
        final Map<String, String> tags = new TreeMap<>();
        Lifecycle life;

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

    private static String uuid(SimulatedIds ids) {
        String hex = ids.next("", 32);
        return hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16) + "-"
                + hex.substring(16, 20) + "-" + hex.substring(20, 32);
    }
}
