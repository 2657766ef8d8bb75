package io.trainplane.local.sim;

import io.trainplane.local.sim.EksRecords.AccessEntryRecord;
import io.trainplane.local.sim.EksRecords.AddonRecord;
import io.trainplane.local.sim.EksRecords.ClusterRecord;
import io.trainplane.local.sim.EksRecords.NodegroupRecord;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.eks.model.CreateClusterRequest;
import software.amazon.awssdk.services.eks.model.VpcConfigRequest;

/**
 * The EKS resources of the simulated account and the lookups and checks every operation shares.
 * Callers hold its monitor; {@link #now()} reads the clock and forgets what has finished deleting.
 */
final class EksAccount {
    private static final Pattern NAME = Pattern.compile("^[0-9A-Za-z][A-Za-z0-9\\-_]*$");

    final TreeMap<String, ClusterRecord> clusters = new TreeMap<>();
    final SimulatedIds ids = new SimulatedIds("eks");
    final EksErrors errors;
    private final Clock clock;
    /** Told the name of each cluster that has finished deleting (its API server stops). */
    private final java.util.function.Consumer<String> clusterGone;

    EksAccount(Clock clock, EksErrors errors, java.util.function.Consumer<String> clusterGone) {
        this.clock = clock;
        this.errors = errors;
        this.clusterGone = clusterGone;
    }

    Instant now() {
        Instant now = clock.instant();
        clusters.values().removeIf(c -> {
            boolean gone = c.life.phase(now) == Lifecycle.Phase.GONE;
            if (gone) {
                clusterGone.accept(c.name());
            }
            return gone;
        });
        for (ClusterRecord c : clusters.values()) {
            c.nodegroups.values().removeIf(n -> n.life.phase(now) == Lifecycle.Phase.GONE);
            c.addons.values().removeIf(a -> a.life.phase(now) == Lifecycle.Phase.GONE);
        }
        return now;
    }

    ClusterRecord cluster(String name) {
        ClusterRecord c = name == null ? null : clusters.get(name);
        if (c == null) {
            throw errors.clusterNotFound(name);
        }
        return c;
    }

    NodegroupRecord nodegroup(String cluster, String name) {
        NodegroupRecord n = cluster(cluster).nodegroups.get(name);
        if (n == null) {
            throw errors.nodegroupNotFound(cluster, name);
        }
        return n;
    }

    AddonRecord addon(String cluster, String name) {
        AddonRecord a = cluster(cluster).addons.get(name);
        if (a == null) {
            throw errors.addonNotFound(cluster, name);
        }
        return a;
    }

    /** The tags of the cluster, node group, add-on or access entry with this ARN. */
    Map<String, String> tagsOf(String arn) {
        for (ClusterRecord c : clusters.values()) {
            if (c.arn().equals(arn)) {
                return c.tags;
            }
            for (NodegroupRecord n : c.nodegroups.values()) {
                if (n.arn().equals(arn)) {
                    return n.tags;
                }
            }
            for (AddonRecord a : c.addons.values()) {
                if (a.arn().equals(arn)) {
                    return a.tags;
                }
            }
            for (AccessEntryRecord e : c.accessEntries.values()) {
                if (e.arn().equals(arn)) {
                    return e.tags;
                }
            }
        }
        throw errors.resourceNotFound(arn);
    }

    void requireActive(ClusterRecord c, Instant now) {
        if (c.life.phase(now) != Lifecycle.Phase.READY) {
            throw errors.notActive(c.name());
        }
    }

    void requireName(String name, int maxLength, String field, String cluster) {
        require(
                name != null && name.length() <= maxLength && NAME.matcher(name).matches(),
                cluster,
                "1 validation error detected: Value '" + name + "' at '" + field + "' failed to satisfy constraint: "
                        + "Member must have length less than or equal to " + maxLength
                        + " and match regular expression pattern: " + NAME.pattern());
    }

    /**
     * EKS creates clusters and node groups only with a Kubernetes version in standard or extended
     * support on the day: "On the end of extended support date, you can no longer create new Amazon
     * EKS clusters with the unsupported version" (https://docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions.html),
     * dates in UTC+0 as the release calendar there gives them (the twin's copy: {@link EksVersionCalendar}). EKS
     * answers an unknown or unsupported version with InvalidParameterException (HTTP 400)
     * "unsupported Kubernetes version 1.31" (as quoted in
     * https://github.com/terraform-aws-modules/terraform-aws-eks/issues/3164; older answers had no
     * version at the end). A null version is EKS's default, always supported.
     */
    void requireSupportedVersion(String version, String cluster, Instant now) {
        require(
                version == null || EksVersionCalendar.canCreate(version, now),
                cluster,
                "unsupported Kubernetes version " + version);
    }

    void require(boolean condition, String cluster, String message) {
        if (!condition) {
            throw errors.invalidParameter(cluster, message);
        }
    }

    /** A retry of the request that made the resource: same client request token, same request. */
    static boolean sameRequest(String token, Object existing, Object request) {
        return token != null && existing.equals(request);
    }

    <T> Paging<T> page(List<T> all, String token, Integer maxResults) {
        return Paging.page(
                all, token, maxResults, 100, () -> errors.invalidParameter(null, "The nextToken is not valid"));
    }

    /**
     * The twin's rules for the blocks ({@link EksPublicAccessCidrs}), with EKS's message for a refused block ("The following
     * CIDRs are invalid in publicAccessCidrs: [...]", as EKS answers it:
     * https://github.com/aws/aws-cdk/issues/33176).
     */
    void requireValidPublicAccessCidrs(String name, VpcConfigRequest vpc) {
        if (!vpc.hasPublicAccessCidrs()) {
            return;
        }
        List<String> invalid = EksPublicAccessCidrs.refused(vpc.publicAccessCidrs());
        require(
                invalid.isEmpty(),
                name,
                "The following CIDRs are invalid in publicAccessCidrs: [" + String.join(",", invalid) + "]");
        require(
                vpc.publicAccessCidrs().size() <= EksPublicAccessCidrs.QUOTA,
                name,
                "publicAccessCidrs has " + vpc.publicAccessCidrs().size() + " CIDR blocks; a cluster takes at most "
                        + EksPublicAccessCidrs.QUOTA);
    }

    static boolean logsControlPlane(CreateClusterRequest request) {
        return request.logging() != null
                && request.logging().hasClusterLogging()
                && request.logging().clusterLogging().stream()
                        .anyMatch(setup -> Boolean.TRUE.equals(setup.enabled())
                                && setup.hasTypes()
                                && !setup.types().isEmpty());
    }

    List<CloudResource> resources() {
        List<CloudResource> all = new ArrayList<>();
        for (ClusterRecord c : clusters.values()) {
            all.add(new CloudResource("eks:cluster/" + c.name(), c.tags));
            c.nodegroups
                    .values()
                    .forEach(n -> all.add(
                            new CloudResource("eks:nodegroup/" + c.name() + "/" + n.request.nodegroupName(), n.tags)));
            c.addons
                    .values()
                    .forEach(a ->
                            all.add(new CloudResource("eks:addon/" + c.name() + "/" + a.request.addonName(), a.tags)));
            c.podIdentities
                    .values()
                    .forEach(p -> all.add(new CloudResource(
                            "eks:podidentityassociation/" + c.name() + "/" + p.association.associationId(), p.tags)));
        }
        return all.stream().sorted().toList();
    }

    List<AddonPodIdentity> podIdentityAssociations() {
        return clusters.values().stream().flatMap(EksAccount::podIdentities).toList();
    }

    /** A cluster's Pod Identity associations: its add-ons' and its own. */
    static java.util.stream.Stream<AddonPodIdentity> podIdentities(EksRecords.ClusterRecord c) {
        return java.util.stream.Stream.concat(
                c.addons.values().stream().flatMap(a -> a.podIdentities.stream()),
                c.podIdentities.values().stream().map(p -> p.association));
    }
}
