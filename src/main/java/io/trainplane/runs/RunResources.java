package io.trainplane.runs;

import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What a run created or uses, and how far its cleanup got: written the moment each thing exists
 * (before its create is sent, where it can be), so that cleanup finds it even when the step that
 * made it died right after. Every entry has a typed {@link Key}, declared here once with the name
 * the Runs table stores it under ({@link RunItems}). Immutable; entries in the order the keys are
 * declared.
 */
public final class RunResources {
    /** How an entry's value is typed, and so stored. */
    public enum Type {
        TEXT,
        FLAG,
        TEXTS,
        TIME
    }

    /** One entry a record may hold: its stored name and the type of its value. */
    public static final class Key<T> {
        private final String name;
        private final Type type;
        private final Class<T> valueClass;

        private Key(String name, Type type, Class<T> valueClass) {
            this.name = name;
            this.type = type;
            this.valueClass = valueClass;
        }

        /** The attribute name in the stored {@code resources} map. */
        public String name() {
            return name;
        }

        public Type type() {
            return type;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** The EKS cluster whose Kubernetes API holds the run's objects (created or existing). */
    public static final Key<String> KUBERNETES_CLUSTER = text("kubernetes/cluster");
    /** The run's namespace; everything inside it carries the run label. */
    public static final Key<String> NAMESPACE = text("kubernetes/namespace");

    /**
     * The run's pods' service account whose EKS Pod Identity association the run asks for, as
     * {@code namespace/serviceAccount} (its own copy of the namespace: the namespace's entry goes
     * with the namespace, before the association), written before the create so that cleanup finds
     * it by them; the association's id, once EKS answered.
     */
    public static final Key<String> POD_IDENTITY_SERVICE_ACCOUNT = text("eks/pod-identity-service-account");

    public static final Key<String> POD_IDENTITY = text("eks/pod-identity-association");

    /** An EKS cluster the run created ({@code cluster.mode: create}); deleted by cleanup unless kept. */
    public static final Key<String> EKS_CLUSTER = text("eks/cluster");

    public static final Key<String> NODE_GROUP = text("eks/nodegroup");
    /**
     * The warm node group the run claimed and scales ({@code cluster.mode: warm}), as
     * {@code <cluster>/<nodegroup>}: written once the claim is the run's, before it asks for nodes;
     * cleanup scales it back to zero and lets go of the claim.
     */
    public static final Key<String> WARM_NODEGROUP = text("eks/warm-nodegroup");
    /**
     * The warm node group's instance type, as EKS described it when the run claimed it: what its nodes
     * cost. A fact about the run, not a resource: it stays after cleanup.
     */
    public static final Key<String> WARM_INSTANCE_TYPE = text("eks/warm-instance-type");
    /** The created cluster's system node group (CoreDNS, add-on controllers, the data job). */
    public static final Key<String> SYSTEM_NODE_GROUP = text("eks/system-nodegroup");
    /** Cloud Control request tokens of the node group's launch template and placement group, when it needs them. */
    public static final Key<String> LAUNCH_TEMPLATE = text("ec2/launch-template");
    /** Cloud Control request token of the system node group's launch template (its metadata options only). */
    public static final Key<String> SYSTEM_LAUNCH_TEMPLATE = text("ec2/system-launch-template");

    public static final Key<String> PLACEMENT_GROUP = text("ec2/placement-group");
    /**
     * The launch templates' ids ({@code lt-…}) and the placement group's name, once Cloud Control
     * named them (written with the node group that uses them): how the account's inventory names
     * them, so that a run whose cleanup could not run names them too (not by a request token).
     */
    public static final Key<String> LAUNCH_TEMPLATE_ID = text("ec2/launch-template-id");

    public static final Key<String> SYSTEM_LAUNCH_TEMPLATE_ID = text("ec2/system-launch-template-id");
    public static final Key<String> PLACEMENT_GROUP_NAME = text("ec2/placement-group-name");
    /**
     * The log group of the created cluster's control-plane logs ({@code /aws/eks/<cluster>/cluster}),
     * written before its create is sent; its Cloud Control request token, once it is asked for.
     */
    public static final Key<String> LOG_GROUP = text("logs/log-group");

    public static final Key<String> LOG_GROUP_REQUEST = text("logs/log-group-request");
    /** The run's EFS file system: created by the run, or adopted ({@link #FILE_SYSTEM_ADOPTED}: never deleted). */
    public static final Key<String> FILE_SYSTEM = text("efs/file-system");

    public static final Key<Boolean> FILE_SYSTEM_ADOPTED = flag("efs/file-system-adopted");
    /** The CreationToken of a file system being created, before EFS has answered with its id. */
    public static final Key<String> FILE_SYSTEM_TOKEN = text("efs/creation-token");
    /**
     * The run's FSx for Lustre file system: created by the run, or adopted
     * ({@link #LUSTRE_FILE_SYSTEM_ADOPTED}: never deleted); its DNS name and mount name, which the
     * PersistentVolume mounts by; the ClientRequestToken of its create, written before it is sent.
     */
    public static final Key<String> LUSTRE_FILE_SYSTEM = text("fsx/file-system");

    public static final Key<Boolean> LUSTRE_FILE_SYSTEM_ADOPTED = flag("fsx/file-system-adopted");
    public static final Key<String> LUSTRE_REQUEST_TOKEN = text("fsx/client-request-token");
    public static final Key<String> LUSTRE_DNS_NAME = text("fsx/dns-name");
    public static final Key<String> LUSTRE_MOUNT_NAME = text("fsx/mount-name");
    /** The data repository associations that link the run's file system to S3 (they go with it). */
    public static final Key<List<String>> LUSTRE_ASSOCIATIONS = texts("fsx/data-repository-associations");
    /**
     * The cluster's security group that the run added to mount targets it did not make (an adopted
     * or kept file system's), and those mount targets: written before the change, so that cleanup
     * takes the group back off exactly those.
     */
    public static final Key<String> MOUNT_TARGET_GROUP = text("efs/mount-target-group");

    public static final Key<List<String>> MOUNT_TARGETS_OPENED = texts("efs/mount-targets-opened");

    /** When cleanup started: it gives up, FAILED, after a deadline. */
    public static final Key<Instant> CLEANUP_STARTED = time("cleanup/started");
    /** When cleanup found nothing left to delete: written once, by the pass that publishes {@code Run Cleaned Up}. */
    public static final Key<Instant> CLEANUP_FINISHED = time("cleanup/finished");
    /** What cleanup deleted, as events name resources ({@code eks:cluster/tp-…}), in the order it went. */
    public static final Key<List<String>> CLEANUP_DELETED = texts("cleanup/deleted");

    /**
     * Why the training's checkpoint sidecar could not put the checkpoints into S3 (its last
     * failure): a warning, not a failure, as Kubernetes restarts a sidecar without failing the Job.
     */
    public static final Key<String> CHECKPOINT_SYNC_FAILED = text("s3/checkpoint-sync-failed");

    /**
     * The evaluation's report (its metrics JSON), read as soon as its Job is done: the workers'
     * node group is deleted right after, and its pods, their termination messages and logs with it.
     */
    public static final Key<String> EVALUATION_REPORT = text("kubernetes/evaluation-report");

    /**
     * Why the training was stopped by the run's budget ({@code budgetUsd}): the cost and the budget
     * when CheckTraining found it reached. From then on the training is being stopped, and the run
     * ends {@link RunStatus#BUDGET_REACHED}.
     */
    public static final Key<String> BUDGET_REACHED = text("run/budget-reached");

    /** Every key, in declaration order. */
    static final List<Key<?>> KEYS = List.of(
            KUBERNETES_CLUSTER,
            NAMESPACE,
            POD_IDENTITY_SERVICE_ACCOUNT,
            POD_IDENTITY,
            EKS_CLUSTER,
            NODE_GROUP,
            WARM_NODEGROUP,
            WARM_INSTANCE_TYPE,
            SYSTEM_NODE_GROUP,
            LAUNCH_TEMPLATE,
            SYSTEM_LAUNCH_TEMPLATE,
            PLACEMENT_GROUP,
            LAUNCH_TEMPLATE_ID,
            SYSTEM_LAUNCH_TEMPLATE_ID,
            PLACEMENT_GROUP_NAME,
            LOG_GROUP,
            LOG_GROUP_REQUEST,
            FILE_SYSTEM,
            FILE_SYSTEM_ADOPTED,
            FILE_SYSTEM_TOKEN,
            LUSTRE_FILE_SYSTEM,
            LUSTRE_FILE_SYSTEM_ADOPTED,
            LUSTRE_REQUEST_TOKEN,
            LUSTRE_DNS_NAME,
            LUSTRE_MOUNT_NAME,
            LUSTRE_ASSOCIATIONS,
            MOUNT_TARGET_GROUP,
            MOUNT_TARGETS_OPENED,
            CLEANUP_STARTED,
            CLEANUP_FINISHED,
            CLEANUP_DELETED,
            EVALUATION_REPORT,
            CHECKPOINT_SYNC_FAILED,
            BUDGET_REACHED);

    private static final Map<String, Key<?>> BY_NAME =
            KEYS.stream().collect(Collectors.toUnmodifiableMap(Key::name, Function.identity()));

    public static final RunResources NONE = new RunResources(Map.of());

    private final Map<Key<?>, Object> entries;

    private RunResources(Map<Key<?>, Object> entries) {
        Map<Key<?>, Object> ordered = new LinkedHashMap<>();
        for (Key<?> key : KEYS) {
            Object value = entries.get(key);
            if (value != null) {
                ordered.put(key, value);
            }
        }
        this.entries = Collections.unmodifiableMap(ordered);
    }

    /** The key stored under {@code name}, if there is one. */
    static Optional<Key<?>> key(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }

    public <T> Optional<T> get(Key<T> key) {
        return Optional.ofNullable(key.valueClass.cast(entries.get(key)));
    }

    /** The value of a {@link Type#TEXTS} entry; empty when there is none. */
    public List<String> list(Key<List<String>> key) {
        return get(key).orElse(List.of());
    }

    /** Whether a {@link Type#FLAG} entry is set and true. */
    public boolean isTrue(Key<Boolean> key) {
        return get(key).orElse(false);
    }

    public boolean has(Key<?> key) {
        return entries.containsKey(key);
    }

    /** These resources with {@code key} set to {@code value}, replacing any previous value. */
    public <T> RunResources with(Key<T> key, T value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value of " + key);
        Map<Key<?>, Object> next = new LinkedHashMap<>(entries);
        next.put(key, value instanceof List<?> list ? List.copyOf(list) : key.valueClass.cast(value));
        return new RunResources(next);
    }

    public RunResources without(Key<?>... keys) {
        return without(List.of(keys));
    }

    public RunResources without(Collection<? extends Key<?>> keys) {
        Map<Key<?>, Object> next = new LinkedHashMap<>(entries);
        keys.forEach(next::remove);
        return next.size() == entries.size() ? this : new RunResources(next);
    }

    /**
     * Every entry by its stored name, in declaration order: {@link String}, {@link Boolean},
     * {@code List<String>} or {@link Instant} as its key's type says.
     */
    public Map<String, Object> asMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        entries.forEach((key, value) -> map.put(key.name(), value));
        return Collections.unmodifiableMap(map);
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RunResources other && entries.equals(other.entries);
    }

    @Override
    public int hashCode() {
        return entries.hashCode();
    }

    @Override
    public String toString() {
        return asMap().toString();
    }

    private static Key<String> text(String name) {
        return new Key<>(name, Type.TEXT, String.class);
    }

    private static Key<Boolean> flag(String name) {
        return new Key<>(name, Type.FLAG, Boolean.class);
    }

    @SuppressWarnings("unchecked")
    private static Key<List<String>> texts(String name) {
        return new Key<>(name, Type.TEXTS, (Class<List<String>>) (Class<?>) List.class);
    }

    private static Key<Instant> time(String name) {
        return new Key<>(name, Type.TIME, Instant.class);
    }
}
