package io.trainplane.local.sim;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import software.amazon.awssdk.services.eks.model.Taint;
import software.amazon.awssdk.services.eks.model.TaintEffect;

/**
 * The Kubernetes side of the simulated account: one {@link SimulatedCluster} per EKS cluster,
 * started when EKS creates the cluster ({@link ApiServers}) or for a cluster that exists before any
 * run ({@link #addExisting}), and gone with the cluster.
 */
public final class SimulatedClusters implements ApiServers, AutoCloseable {
    private final Map<String, SimulatedCluster> clusters = new ConcurrentHashMap<>();
    /** Every API server started, gone or not: what was written to it outlives it (the schema check reads it). */
    private final List<SimulatedKubernetes> started = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** Pre-existing clusters whose API servers have not started yet, with the EKS that starts them. */
    private final Map<String, SimulatedEks> notStarted = new ConcurrentHashMap<>();

    /** How long before its first use a pre-existing cluster's software started, and how many reconciles it may take to settle. */
    private static final java.time.Duration SETTLED = java.time.Duration.ofMinutes(10);

    private static final int SETTLING_ROUNDS = 8;

    private final PodBehaviour behaviour;
    private final Clock clock;
    private volatile EksApiServerGate gate;
    private volatile VolumeMounts.MountTargets mountTargets = VolumeMounts.MountTargets.UNKNOWN;
    private volatile ClusterTrouble trouble = ClusterTrouble.none();
    private volatile ImagePulls.Registries registries = ImagePulls.Registries.ANY;

    public SimulatedClusters(PodBehaviour behaviour, Clock clock) {
        this.behaviour = behaviour;
        this.clock = clock;
    }

    /** EFS volumes mount only from a zone where the file system has a mount target, as {@code efs} says. */
    public SimulatedClusters mountingFrom(VolumeMounts.MountTargets efs) {
        this.mountTargets = efs;
        return this;
    }

    /** The clusters opened from now on pull images as {@code registries} allow (private ECR: the node role's IAM). */
    public SimulatedClusters pullingFrom(ImagePulls.Registries registries) {
        this.registries = registries;
        return this;
    }

    /**
     * Arms {@code fault} on every cluster, now and later (null: none); see {@link ClusterTrouble}. A
     * fault that interrupts the training strikes after {@code afterEpochs} epochs (0: half of them).
     */
    public void inject(ClusterFault fault, int afterEpochs) {
        this.trouble = new ClusterTrouble(fault, afterEpochs, behaviour);
    }

    /** Every API server, now and later, checks requests with {@code gate} (its view for the server's endpoint). */
    public void guardedBy(EksApiServerGate gate) {
        this.gate = gate;
        clusters.values()
                .forEach(c -> c.kubernetes().guardedBy(gate.at(c.kubernetes().endpoint())));
    }

    @Override
    public String start(String cluster, String kubernetesVersion, boolean networkingAddons) {
        SimulatedCluster c = open(cluster);
        BareCluster.bootstrap(c.kubernetes().admin(), networkingAddons);
        return c.kubernetes().endpoint();
    }

    @Override
    public void stop(String cluster) {
        notStarted.remove(cluster);
        SimulatedCluster c = clusters.remove(cluster);
        if (c != null) {
            c.close();
        }
    }

    @Override
    public void installAddon(String cluster, String addon) {
        cluster(cluster).ifPresent(c -> AddonWorkloads.install(c.kubernetes().admin(), addon));
    }

    @Override
    public void removeAddon(String cluster, String addon) {
        cluster(cluster).ifPresent(c -> AddonWorkloads.remove(c.kubernetes().admin(), addon));
    }

    @Override
    public Optional<Boolean> addonRunning(String cluster, String addon) {
        return cluster(cluster).map(c -> AddonWorkloads.running(c.kubernetes().admin(), addon));
    }

    /**
     * The cluster {@code existing} describes: in EKS (ACTIVE, with its node groups) now, and on its
     * API server from when EKS first gives out its endpoint ({@link #existingServer}).
     */
    public void addExisting(ExistingCluster existing, SimulatedEks eks) {
        notStarted.put(existing.name(), eks);
        eks.addExistingCluster(existing.name(), () -> existingServer(existing, eks), existing.version());
        for (var group : existing.nodeGroups()) {
            eks.addExistingNodegroup(
                    existing.name(),
                    group.name(),
                    group.instanceType(),
                    group.nodes(),
                    group.minNodes(),
                    group.maxNodes(),
                    group.labels(),
                    group.taints().stream().map(SimulatedClusters::taint).toList(),
                    group.tags(),
                    ExistingCluster.ROOT_VOLUME_GIB);
        }
    }

    /**
     * Starts the API server of a cluster that was there before the run, with what {@code existing}
     * says is installed, and lets it settle: its nodes Ready and its software running, as on a
     * cluster that has been up for a while. EKS calls it under its lock.
     */
    private String existingServer(ExistingCluster existing, SimulatedEks eks) {
        notStarted.remove(existing.name());
        SimulatedCluster c = open(existing.name());
        existing.install(c.kubernetes().admin());
        List<ClusterNodes.Group> groups = trouble.nodeGroups(eks.activeNodegroups(existing.name()));
        Instant now = clock.instant();
        for (Instant at : List.of(now.minus(SETTLED), now)) {
            for (int round = 0; round < SETTLING_ROUNDS; round++) {
                long writes = c.kubernetes().writeCount();
                c.reconcile(at, groups);
                if (c.kubernetes().writeCount() == writes) {
                    break;
                }
            }
        }
        return c.kubernetes().endpoint();
    }

    /** {@code key=value:Effect} as EKS's Taint. */
    private static Taint taint(String spec) {
        int colon = spec.lastIndexOf(':');
        String[] kv = spec.substring(0, colon).split("=", 2);
        String effect = spec.substring(colon + 1);
        return Taint.builder()
                .key(kv[0])
                .value(kv.length > 1 ? kv[1] : null)
                .effect(
                        switch (effect) {
                            case "NoExecute" -> TaintEffect.NO_EXECUTE;
                            case "PreferNoSchedule" -> TaintEffect.PREFER_NO_SCHEDULE;
                            default -> TaintEffect.NO_SCHEDULE;
                        })
                .build();
    }

    private SimulatedCluster open(String name) {
        SimulatedCluster c =
                new SimulatedCluster(name, behaviour, fileSystem -> mountTargets.zones(fileSystem), registries);
        started.add(c.kubernetes());
        c.kubernetes()
                .servingLogs((job, pod) -> ClusterDns.log(pod).or(() -> behaviour.log(job, pod, clock.instant())));
        EksApiServerGate current = gate;
        if (current != null) {
            c.kubernetes().guardedBy(current.at(c.kubernetes().endpoint()));
        }
        SimulatedCluster previous = clusters.put(name, c);
        if (previous != null) {
            previous.close();
        }
        return c;
    }

    /** The cluster's Kubernetes, while the cluster exists; a pre-existing cluster's server starts if it had not. */
    public Optional<SimulatedCluster> cluster(String name) {
        SimulatedEks eks = notStarted.get(name);
        if (eks != null) {
            // Through EKS, under its lock, as a DescribeCluster would start it.
            eks.endpoint(name);
        }
        return Optional.ofNullable(clusters.get(name));
    }

    /** The clusters whose API servers are up, by name. */
    public List<SimulatedCluster> live() {
        return clusters.values().stream()
                .sorted(java.util.Comparator.comparing(SimulatedCluster::name))
                .toList();
    }

    /** An operator's client on every live API server. */
    public List<KubernetesClient> admins() {
        return live().stream().map(c -> c.kubernetes().admin()).toList();
    }

    /** When the clusters last caught up with the clock (null: never). */
    private Instant reconciled;

    /** Lets every cluster catch up with the clock: nodes of its ACTIVE node groups, then its controllers. */
    public void reconcile(SimulatedEks eks) {
        Instant now = clock.instant();
        Instant after = reconciled == null ? now : reconciled;
        reconciled = now;
        for (SimulatedCluster c : live()) {
            // EKS's view first, outside the cluster's lock: EKS may stop a cluster while holding its own.
            List<ClusterNodes.Group> groups = trouble.nodeGroups(eks.activeNodegroups(c.name()));
            try {
                trouble.act(c.kubernetes().admin());
            } catch (RuntimeException e) {
                // The cluster finished deleting meanwhile: nothing left to act on.
                continue;
            }
            // The clock jumps at a state machine's Wait: the cluster first catches up at each instant a
            // node group turned ACTIVE meanwhile, so its nodes join and their DaemonSet pods start then.
            for (Instant at : eks.nodegroupsActiveBetween(c.name(), after, now)) {
                if (at.isBefore(now)) {
                    settle(c, at, trouble.nodeGroups(eks.activeNodegroups(c.name(), at)));
                }
            }
            settle(c, now, groups);
        }
    }

    /**
     * Reconciles until nothing changes (at most {@link #SETTLING_ROUNDS} rounds): one round moves
     * each object one step (a pod created, then bound, then running, then its Job complete), and a
     * cluster's controllers take all of them within the instant.
     */
    private void settle(SimulatedCluster c, Instant at, List<ClusterNodes.Group> groups) {
        for (int round = 0; round < SETTLING_ROUNDS; round++) {
            long writes = c.kubernetes().writeCount();
            c.reconcile(at, groups, trouble);
            if (c.kubernetes().writeCount() == writes) {
                return;
            }
        }
    }

    /** What callers other than the control plane wrote to any cluster's API server, including clusters gone since. */
    public List<SimulatedKubernetes.Write> writes() {
        return started.stream().flatMap(k -> k.writes().stream()).toList();
    }

    /** The watches asked of every cluster's API server, including clusters gone since ({@link SimulatedKubernetes#watches}). */
    public long watches() {
        return started.stream().mapToLong(SimulatedKubernetes::watches).sum();
    }

    /** Every object that carries a run label, on every live server. */
    public List<String> labeledObjects() {
        List<String> all = new ArrayList<>();
        for (SimulatedCluster c : live()) {
            try {
                all.addAll(c.kubernetes().labeledObjects());
            } catch (RuntimeException e) {
                // The cluster finished deleting while being read: its objects are gone with it.
            }
        }
        return Stream.of(all).flatMap(List::stream).sorted().toList();
    }

    @Override
    public void close() {
        clusters.keySet().forEach(this::stop);
    }
}
