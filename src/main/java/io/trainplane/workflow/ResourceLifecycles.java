package io.trainplane.workflow;

import io.trainplane.aws.Deletion;
import io.trainplane.aws.ResourceLifecycle;
import io.trainplane.aws.ResourceState;
import io.trainplane.aws.RunTags;
import io.trainplane.aws.Settings;
import io.trainplane.aws.ec2.ControlPlaneLogGroups;
import io.trainplane.aws.ec2.Ec2DesiredState;
import io.trainplane.aws.ec2.Ec2Objects;
import io.trainplane.aws.ec2.RequestedResources;
import io.trainplane.aws.efs.EfsVolumes;
import io.trainplane.aws.efs.MountTargetSecurityGroups;
import io.trainplane.aws.eks.EksAddons;
import io.trainplane.aws.eks.EksClusters;
import io.trainplane.aws.eks.EksNodegroups;
import io.trainplane.aws.eks.RunPodIdentities;
import io.trainplane.aws.eks.WarmNodegroups;
import io.trainplane.aws.fsx.LustreFileSystems;
import io.trainplane.aws.fsx.LustreTeardown;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.kubernetes.RunNamespaces;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.CleanupSpec;
import io.trainplane.spec.Names;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.logging.Logger;
import software.amazon.awssdk.services.cloudcontrol.CloudControlClient;
import software.amazon.awssdk.services.efs.EfsClient;
import software.amazon.awssdk.services.eks.EksClient;

/**
 * Each {@link ResourceKind} bound to its lifecycle ({@link ResourceLifecycle}) over what the run
 * record lists: the Teardown function's, which reaches the cluster's Kubernetes API for the run's
 * objects. The SDK clients are taken on first use: a pass that finds only Kubernetes objects left
 * never builds the EFS or Cloud Control client.
 */
final class ResourceLifecycles {
    private static final Logger LOG = Logger.getLogger(ResourceLifecycles.class.getName());

    /** One kind's resource the record lists, bound to its lifecycle. */
    interface Held {
        /** As the account's inventory names it, as far as is known without asking (or from the last delete). */
        List<String> named();

        /** What of it is still there, asking the services; a look that fails names it as {@link #named} does. */
        List<String> left();

        /** Asks for it to go ({@link ResourceLifecycle#delete}). */
        Deletion delete();
    }

    private final Supplier<EksClient> eks;
    private final Supplier<EfsClient> efs;
    private final Supplier<LustreFileSystems> fsx;
    private final Supplier<CloudControlClient> cloudControl;
    private final Supplier<ClusterAccess> kubernetes;
    private final RunStore store;
    /** The stack and its deployment, whose tags find what a run made but whose id never reached its record. */
    private final Settings settings;

    ResourceLifecycles(
            Supplier<EksClient> eks,
            Supplier<EfsClient> efs,
            Supplier<LustreFileSystems> fsx,
            Supplier<CloudControlClient> cloudControl,
            Supplier<ClusterAccess> kubernetes,
            RunStore store,
            Settings settings) {
        this.eks = eks;
        this.efs = efs;
        this.fsx = fsx;
        this.cloudControl = cloudControl;
        this.kubernetes = kubernetes;
        this.store = store;
        this.settings = settings;
    }

    /**
     * The resources of {@code run}, bound for one pass. {@code record} changes the run record:
     * a file system found by its creation token is written down by its id, or forgotten when the
     * token finds none.
     */
    Function<ResourceKind, Optional<Held>> bind(RunRecord run, Consumer<UnaryOperator<RunResources>> record) {
        return new Pass(run, record)::held;
    }

    /**
     * What the run still holds, asking the services for the parts the record does not list (mount
     * targets, add-ons, the objects in the namespace) and leaving out what is already gone; kept
     * resources are not listed. Sorted. A look that fails keeps the resource in the list: naming
     * something gone is better than hiding something left.
     */
    List<String> left(RunRecord run) {
        CleanupSpec keep = CleanupRecord.keep(run);
        Function<ResourceKind, Optional<Held>> held = bind(run, change -> {});
        TreeSet<String> left = new TreeSet<>();
        for (ResourceKind kind : ResourceKind.values()) {
            if (!kind.kept(keep, run.resources())) {
                held.apply(kind).ifPresent(h -> left.addAll(h.left()));
            }
        }
        return List.copyOf(left);
    }

    /** The bindings of one run's resources for one pass; the file system's id, once looked up by its token, is kept. */
    private final class Pass {
        private final RunRecord run;
        private final RunResources r;
        private final Consumer<UnaryOperator<RunResources>> record;
        private Optional<String> fileSystemId;

        Pass(RunRecord run, Consumer<UnaryOperator<RunResources>> record) {
            this.run = run;
            this.r = run.resources();
            this.record = record;
        }

        Optional<Held> held(ResourceKind kind) {
            return switch (kind) {
                case KUBERNETES_OBJECTS ->
                    r.get(RunResources.KUBERNETES_CLUSTER)
                            .filter(c -> r.has(RunResources.NAMESPACE))
                            .map(cluster -> bound(
                                    kind,
                                    new RunNamespaces.InCluster(cluster, run.runId()),
                                    this::namespaces,
                                    objects -> namespaces().remaining(objects)));
                case POD_IDENTITY ->
                    r.get(RunResources.KUBERNETES_CLUSTER)
                            .flatMap(cluster -> r.get(RunResources.POD_IDENTITY_SERVICE_ACCOUNT)
                                    .map(account -> RunPodIdentities.InCluster.of(cluster, account)))
                            .map(association -> bound(
                                    kind, association, () -> new RunPodIdentities(eks.get()), a -> new RunPodIdentities(
                                                    eks.get())
                                            .associationIds(a).stream()
                                                    .map(id -> "eks:podidentityassociation/" + a.cluster() + "/" + id)
                                                    .toList()));
                case MOUNT_TARGET_ACCESS ->
                    r.get(RunResources.MOUNT_TARGET_GROUP)
                            .filter(group ->
                                    !r.list(RunResources.MOUNT_TARGETS_OPENED).isEmpty())
                            .map(group -> mountTargetAccess(new MountTargetSecurityGroups.Added(
                                    group, r.list(RunResources.MOUNT_TARGETS_OPENED))));
                case MOUNT_TARGETS -> recordsFileSystem() ? Optional.of(mountTargets()) : Optional.empty();
                case FILE_SYSTEM -> recordsFileSystem() ? Optional.of(fileSystem()) : Optional.empty();
                case LUSTRE_FILE_SYSTEM -> lustreFileSystem(kind);
                case NODE_GROUP -> nodegroup(kind, RunResources.NODE_GROUP);
                case WARM_NODES ->
                    r.get(RunResources.WARM_NODEGROUP)
                            .map(ref -> bound(
                                    kind,
                                    WarmNodegroups.Warm.of(ref),
                                    () -> new WarmNodes(new WarmNodegroups(eks.get()), store, run.runId()),
                                    null));
                case SYSTEM_NODE_GROUP -> nodegroup(kind, RunResources.SYSTEM_NODE_GROUP);
                case LAUNCH_TEMPLATE ->
                    r.get(RunResources.LAUNCH_TEMPLATE)
                            .map(token ->
                                    requested(kind, token, Ec2DesiredState.LAUNCH_TEMPLATE, "ec2:launch-template/"));
                case SYSTEM_LAUNCH_TEMPLATE ->
                    r.get(RunResources.SYSTEM_LAUNCH_TEMPLATE)
                            .map(token ->
                                    requested(kind, token, Ec2DesiredState.LAUNCH_TEMPLATE, "ec2:launch-template/"));
                case PLACEMENT_GROUP ->
                    r.get(RunResources.PLACEMENT_GROUP)
                            .map(token ->
                                    requested(kind, token, Ec2DesiredState.PLACEMENT_GROUP, "ec2:placement-group/"));
                case CLUSTER ->
                    r.get(RunResources.EKS_CLUSTER)
                            .map(c -> bound(kind, c, this::clusters, cluster -> {
                                if (look(() -> clusters().state(cluster), null) instanceof ResourceState.Gone) {
                                    return List.of();
                                }
                                List<String> left = new ArrayList<>(kind.named(r));
                                // Its add-ons go with it, but are there until then.
                                look(() -> new EksAddons(eks.get()).installed(cluster), List.<String>of())
                                        .forEach(addon -> left.add("eks:addon/" + cluster + "/" + addon));
                                return left;
                            }));
                case LOG_GROUP ->
                    r.get(RunResources.LOG_GROUP)
                            .map(name -> bound(
                                    kind,
                                    new ControlPlaneLogGroups.Recorded(
                                            name,
                                            r.get(RunResources.LOG_GROUP_REQUEST),
                                            RunTags.of(settings, new Names(run.runId()))),
                                    () -> new ControlPlaneLogGroups(ec2()),
                                    logGroup -> kind.named(r)));
            };
        }

        private Optional<Held> nodegroup(ResourceKind kind, RunResources.Key<String> key) {
            return r.get(RunResources.EKS_CLUSTER).flatMap(c -> r.get(key)
                    .map(ng -> bound(kind, new EksNodegroups.InCluster(c, ng), this::nodegroups, null)));
        }

        /**
         * A resource whose lifecycle answers for it: named as the record names its kind, and left
         * while its state is not Gone, or as {@code lookUp} says (null: by its state).
         */
        private <H> Held bound(
                ResourceKind kind,
                H resource,
                Supplier<? extends ResourceLifecycle<H>> lifecycle,
                Function<H, List<String>> lookUp) {
            return new Held() {
                private List<String> named = kind.named(r);

                @Override
                public List<String> named() {
                    return named;
                }

                @Override
                public List<String> left() {
                    if (lookUp != null) {
                        return look(() -> lookUp.apply(resource), named);
                    }
                    return look(() -> lifecycle.get().state(resource), null) instanceof ResourceState.Gone
                            ? List.of()
                            : named;
                }

                @Override
                public Deletion delete() {
                    Deletion deletion = lifecycle.get().delete(resource);
                    if (deletion instanceof Deletion.Deleting deleting
                            && !deleting.stillThere().isEmpty()) {
                        named = deleting.stillThere();
                    }
                    return deletion;
                }
            };
        }

        /**
         * The cluster's group on the mount targets of a file system that stays, taken back off; a
         * file system that goes takes its mount targets with it, so there is nothing to undo.
         */
        private Held mountTargetAccess(MountTargetSecurityGroups.Added added) {
            boolean fileSystemStays = ResourceKind.FILE_SYSTEM.kept(CleanupRecord.keep(run), r);
            return new Held() {
                @Override
                public List<String> named() {
                    return List.of("efs:mount-target-security-group/" + added.groupId());
                }

                @Override
                public List<String> left() {
                    return List.of(); // a change to someone else's mount targets: no resource the inventory lists
                }

                @Override
                public Deletion delete() {
                    return fileSystemStays
                            ? new MountTargetSecurityGroups(efs.get()).delete(added)
                            : new Deletion.Gone();
                }
            };
        }

        private boolean recordsFileSystem() {
            return r.has(RunResources.FILE_SYSTEM) || r.has(RunResources.FILE_SYSTEM_TOKEN);
        }

        /** The mount targets of the run's file system (found by its token before EFS answered with its id). */
        private Held mountTargets() {
            return new Held() {
                @Override
                public List<String> named() {
                    return ResourceKind.FILE_SYSTEM.named(r);
                }

                @Override
                public List<String> left() {
                    // Looked up by the file system's entry: listed only while it is there.
                    return List.of();
                }

                @Override
                public Deletion delete() {
                    Optional<String> id = fileSystemId();
                    return id.isEmpty()
                            ? new Deletion.Gone()
                            : volumes().mountTargets().delete(id.get());
                }
            };
        }

        private Held fileSystem() {
            return new Held() {
                @Override
                public List<String> named() {
                    return ResourceKind.FILE_SYSTEM.named(r);
                }

                @Override
                public List<String> left() {
                    Optional<String> id = look(ResourceLifecycles.Pass.this::fileSystemId, null);
                    if (id == null) {
                        return named(); // the token could not be looked up
                    }
                    if (id.isEmpty()
                            || look(() -> volumes().fileSystemState(id.get()), null) instanceof ResourceState.Gone) {
                        return List.of();
                    }
                    List<String> left = new ArrayList<>(List.of("efs:file-system/" + id.get()));
                    look(() -> volumes().mountTargetIds(id.get()), List.<String>of())
                            .forEach(mt -> left.add("efs:mount-target/" + mt));
                    return left;
                }

                @Override
                public Deletion delete() {
                    Optional<String> id = fileSystemId();
                    if (id.isEmpty()) {
                        // The create never reached EFS: nothing to delete, and nothing to remember.
                        record.accept(res -> res.without(RunResources.FILE_SYSTEM_TOKEN));
                        return new Deletion.Gone();
                    }
                    if (!r.has(RunResources.FILE_SYSTEM)) {
                        record.accept(res -> res.with(RunResources.FILE_SYSTEM, id.get()));
                    }
                    return volumes().fileSystems().delete(id.get());
                }
            };
        }

        /** The run's file system: its id, or the one EFS made with its creation token; looked up once a pass. */
        private Optional<String> fileSystemId() {
            if (fileSystemId == null) {
                fileSystemId = r.get(RunResources.FILE_SYSTEM).isPresent()
                        ? r.get(RunResources.FILE_SYSTEM)
                        : volumes()
                                .findByCreationToken(
                                        r.get(RunResources.FILE_SYSTEM_TOKEN).orElseThrow(), tags());
            }
            return fileSystemId;
        }

        /**
         * The run's FSx for Lustre file system: by its id, or before FSx answered with it, by the
         * run's tags (found: written down; none: the token forgotten, nothing was made).
         */
        private Optional<Held> lustreFileSystem(ResourceKind kind) {
            Optional<String> id = r.get(RunResources.LUSTRE_FILE_SYSTEM);
            if (id.isPresent()) {
                return Optional.of(bound(kind, id.get(), this::lustre, null));
            }
            if (!r.has(RunResources.LUSTRE_REQUEST_TOKEN)) {
                return Optional.empty();
            }
            return Optional.of(new Held() {
                @Override
                public List<String> named() {
                    return kind.named(r);
                }

                @Override
                public List<String> left() {
                    Optional<String> found = look(() -> lustre().findByRun(tags()), null);
                    return found == null
                            ? named()
                            : found.map(f -> List.of("fsx:file-system/" + f)).orElse(List.of());
                }

                @Override
                public Deletion delete() {
                    Optional<String> found = lustre().findByRun(tags());
                    if (found.isEmpty()) {
                        // The create never reached FSx: nothing to delete, nothing to remember.
                        record.accept(res -> res.without(RunResources.LUSTRE_REQUEST_TOKEN));
                        return new Deletion.Gone();
                    }
                    record.accept(res -> res.with(RunResources.LUSTRE_FILE_SYSTEM, found.get()));
                    return lustre().delete(found.get());
                }
            });
        }

        private RunTags tags() {
            return RunTags.of(settings, new Names(run.runId()));
        }

        private LustreTeardown lustre() {
            return new LustreTeardown(fsx.get());
        }

        /**
         * A launch template or placement group, known by its Cloud Control request: left as the
         * identifier Cloud Control gave it ({@code ec2:launch-template/lt-…}), as the request when
         * that cannot be asked, not at all when the request made nothing.
         */
        private Held requested(ResourceKind kind, String token, String typeName, String prefix) {
            Supplier<RequestedResources> lifecycle = () -> new RequestedResources(ec2(), typeName);
            return bound(kind, token, lifecycle, t -> {
                Optional<String> identifier = look(() -> lifecycle.get().identifier(t), null);
                return identifier == null
                        ? kind.named(r)
                        : identifier.map(id -> List.of(prefix + id)).orElse(List.of());
            });
        }

        private RunNamespaces namespaces() {
            return new RunNamespaces(kubernetes.get());
        }

        private EksClusters clusters() {
            return new EksClusters(eks.get());
        }

        private EksNodegroups nodegroups() {
            return new EksNodegroups(eks.get());
        }

        private EfsVolumes volumes() {
            return new EfsVolumes(efs.get());
        }

        private Ec2Objects ec2() {
            return new Ec2Objects(cloudControl.get());
        }
    }

    /** A read that may fail: its answer, or {@code otherwise} (logged) when it failed. */
    private static <T> T look(Supplier<T> read, T otherwise) {
        try {
            return read.get();
        } catch (RuntimeException e) {
            LOG.warning(() -> "could not look at what cleanup left: " + e.getMessage());
            return otherwise;
        }
    }
}
