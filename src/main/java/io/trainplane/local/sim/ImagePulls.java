package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.trainplane.kubernetes.DevicePluginManifests;
import io.trainplane.kubernetes.WorkloadManifests;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The kubelet's image pulls, for one cluster: each node has its own image cache, filled by the
 * pods bound to it (https://kubernetes.io/docs/concepts/containers/images/, imagePullPolicy
 * IfNotPresent for a tagged image: an image already on the node is not pulled again). A pod's
 * images (init containers, sidecars and containers, in that order) are pulled one after the other:
 * "The kubelet never pulls multiple images in parallel on behalf of one Pod"
 * (https://kubernetes.io/docs/concepts/containers/images/#serial-and-parallel-image-pulls). Across
 * pods, EKS nodes pull in parallel: the EKS AMIs set {@code serializeImagePulls: false}
 * (https://github.com/awslabs/amazon-eks-ami/blob/main/nodeadm/internal/kubelet/config.go,
 * defaultKubeletSubConfig; templates/al2/runtime/kubelet-config.json for AL2), overriding the
 * kubelet's serial default; a pull another pod started is waited for, not repeated. While its
 * images are pulled the pod stays Pending, its containers waiting in ContainerCreating, with the
 * kubelet's Pulling and Pulled events (pkg/kubelet/images/image_manager.go). A pull the registry
 * refuses ({@link Registries}: a private ECR image the node role may not read) fails as the kubelet
 * shows it: the container waits in ErrImagePull, then ImagePullBackOff, with the Failed and BackOff
 * events, and the pod stays Pending.
 */
public final class ImagePulls {
    /**
     * The registries' side of a pull: why the registry refuses {@code image} to {@code node}, whose
     * instance role is {@code nodeRoleArn} (null: unknown), in containerd's words; empty when it serves it.
     */
    @FunctionalInterface
    public interface Registries {
        Optional<String> refusal(String nodeRoleArn, String node, String image);

        Registries ANY = (role, node, image) -> Optional.empty();

        /** Each registry asked in turn: the first refusal. */
        static Registries all(Registries... registries) {
            return (role, node, image) -> java.util.Arrays.stream(registries)
                    .map(r -> r.refusal(role, node, image))
                    .flatMap(Optional::stream)
                    .findFirst();
        }
    }

    /** How long a refused pull takes to fail: a token request and a manifest request (an estimate). */
    static final Duration REFUSED_AFTER = Duration.ofSeconds(1);

    /**
     * The kubelet's first back-off after a failed pull: ErrImagePull, then ImagePullBackOff
     * (https://kubernetes.io/docs/concepts/containers/images/#imagepullbackoff: "Kubernetes ...
     * incrementally increases the delay between each attempt ... to a compiled-in limit, which is 300
     * seconds"; the first delay is 10 s, pkg/kubelet/kubelet.go backOffPeriod).
     */
    static final Duration FIRST_BACK_OFF = Duration.ofSeconds(10);
    /**
     * Pulling a container image onto a fresh node, per GB of image: "Standard Docker image pulls of
     * 15–20 GB can take 4–6 minutes per instance" (AWS Machine Learning Blog, "Reducing container
     * cold start times using SOCI index on DLAMI and DLC", as republished at
     * https://wpnews.pro/news/reducing-container-cold-start-times-using-soci-index-on-dlami-and-dlc):
     * 5 minutes for 17.5 GB, 17 s per GB. The blog does not say whether its sizes are compressed;
     * applied here to the compressed size the registry lists (what the node downloads), the lower
     * bound of the pull. The single source of the twin's and the critical-path benchmark's pull rate.
     */
    public static final Duration PULL_PER_GB = Duration.ofSeconds(17);

    /** The size assumed for an image the twin does not know: a mid-sized application image (an estimate). */
    public static final double DEFAULT_GB = 0.5;

    /**
     * Compressed sizes (GB, linux/amd64) of the images the project runs besides the training images
     * and the PyTorch training image, whose size Docker Hub publishes ({@link NodeRootVolume#PYTORCH_2_5_1_CUDA_GB}), as the registries list them:
     * estimates (no citable figure found here), all small beside it: the AWS CLI
     * image (Amazon Linux 2 with the CLI v2, https://gallery.ecr.aws/aws-cli/aws-cli), the EKS
     * add-on images from EKS's registry (https://docs.aws.amazon.com/eks/latest/userguide/add-ons-images.html),
     * the device plugins and the training operator. Each image is matched by its reference as the
     * pod names it.
     */
    public static final Map<String, Double> COMPRESSED_GB = Map.ofEntries(
            Map.entry("pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime", NodeRootVolume.PYTORCH_2_5_1_CUDA_GB),
            Map.entry(WorkloadManifests.AWS_CLI_IMAGE, 0.14), // estimate
            Map.entry(DevicePluginManifests.IMAGE, 0.16), // estimate
            Map.entry(DevicePluginManifests.EFA_IMAGE, 0.03), // estimate
            Map.entry(AddonWorkloads.EFA_DEVICE_PLUGIN_IMAGE, 0.03), // estimate
            Map.entry(AddonWorkloads.EFS_CSI_IMAGE, 0.1), // estimate
            Map.entry(AddonWorkloads.FSX_CSI_IMAGE, 0.1), // estimate
            Map.entry(AddonWorkloads.POD_IDENTITY_AGENT_IMAGE, 0.02), // estimate
            Map.entry(BareCluster.AWS_NODE_IMAGE, 0.05), // estimate
            Map.entry(BareCluster.COREDNS_IMAGE, 0.02), // estimate
            Map.entry(BareCluster.KUBE_PROXY_IMAGE, 0.03), // estimate
            Map.entry(ExistingCluster.TRAINING_OPERATOR_IMAGE, 0.04), // estimate
            // The pause image is a few hundred KB (https://gallery.ecr.aws/eks-distro/kubernetes/pause); an estimate.
            Map.entry(WorkloadManifests.PAUSE_IMAGE, 0.0003),
            // A few MB each (https://hub.docker.com/_/busybox/tags, https://hub.docker.com/_/alpine/tags);
            // estimates, for the pods of the twin's tests.
            Map.entry("busybox", 0.002),
            Map.entry("alpine", 0.004));

    /**
     * One image of a pod on its node: pulled from {@code started} to {@code finished}, or already
     * there ({@code pulled} false), or refused at {@code finished} ({@code refusal} the registry's answer).
     */
    record Pull(String image, Instant started, Instant finished, boolean pulled, String refusal) {
        Pull(String image, Instant started, Instant finished, boolean pulled) {
            this(image, started, finished, pulled, null);
        }
    }

    private final ClusterReads reads;
    private final Registries registries;
    /** Each node group's instance role ARN, by node group name, as the last reconcile saw them. */
    private volatile Map<String, String> nodeRoles = Map.of();

    ImagePulls(ClusterReads reads, Registries registries) {
        this.reads = reads;
        this.registries = registries;
    }

    /** The node groups' roles, for the nodes they register ({@link ClusterNodes#NODEGROUP_LABEL}). */
    void nodeGroups(List<ClusterNodes.Group> groups) {
        Map<String, String> roles = new java.util.HashMap<>();
        groups.stream().filter(g -> g.nodeRole() != null).forEach(g -> roles.put(g.name(), g.nodeRole()));
        nodeRoles = Map.copyOf(roles);
    }

    private String nodeRole(Node node) {
        String group = label(node, ClusterNodes.NODEGROUP_LABEL);
        return group == null ? null : nodeRoles.get(group);
    }

    private static String label(Node node, String key) {
        return node == null || node.getMetadata().getLabels() == null
                ? null
                : node.getMetadata().getLabels().get(key);
    }

    /** Each node's images (by node name): when each is (or will be) on the node. */
    private final Map<String, Map<String, Instant>> cached = new ConcurrentHashMap<>();
    /** Each pod's pulls (by uid), planned once when the kubelet first turns to its images. */
    private final Map<String, List<Pull>> plans = new ConcurrentHashMap<>();
    /** Pods the kubelet evicts for the disk their pulls filled ({@link KubeletDisk}), by uid. */
    private final Map<String, Eviction> evictions = new ConcurrentHashMap<>();

    /** An eviction at {@code at}, with the kubelet's message. */
    record Eviction(Instant at, String message) {}

    /** Events already written (pod uid, image, reason). */
    private final Set<String> written = ConcurrentHashMap.newKeySet();

    /** The image's compressed size in GB: the tables', else {@link #DEFAULT_GB}. */
    public static double gigabytes(String image) {
        return COMPRESSED_GB.getOrDefault(image, DEFAULT_GB);
    }

    /** How long pulling {@code gigabytes} takes at {@link #PULL_PER_GB}. */
    public static Duration pull(double gigabytes) {
        return Duration.ofMillis(Math.round(PULL_PER_GB.toMillis() * gigabytes));
    }

    /** The images a pod needs, each once, in the order the kubelet starts its containers. */
    static List<String> images(Pod pod) {
        Set<String> images = new LinkedHashSet<>();
        Stream.concat(
                        pod.getSpec().getInitContainers() == null
                                ? Stream.<Container>empty()
                                : pod.getSpec().getInitContainers().stream(),
                        pod.getSpec().getContainers().stream())
                .map(Container::getImage)
                .filter(i -> i != null && !i.isBlank())
                .forEach(images::add);
        return List.copyOf(images);
    }

    /**
     * When the pod's images are all on its node, the kubelet having turned to them at {@code from}:
     * its pulls are planned then, once, each after the one before.
     */
    synchronized Instant ready(Pod pod, Instant from) {
        List<Pull> pulls = plan(pod, from);
        if (refused(pulls).isPresent()
                || evictions.containsKey(pod.getMetadata().getUid())) {
            return Instant.MAX;
        }
        return pulls.isEmpty() ? from : pulls.getLast().finished();
    }

    private static Optional<Pull> refused(List<Pull> pulls) {
        return pulls.stream().filter(p -> p.refusal() != null).findFirst();
    }

    private List<Pull> plan(Pod pod, Instant from) {
        return plans.computeIfAbsent(pod.getMetadata().getUid(), uid -> {
            Map<String, Instant> cache =
                    cached.computeIfAbsent(pod.getSpec().getNodeName(), n -> new ConcurrentHashMap<>());
            List<Pull> pulls = new ArrayList<>();
            Instant t = from;
            String node = pod.getSpec().getNodeName();
            Node bound = reads.client().nodes().withName(node).get();
            String role = nodeRole(bound);
            String arch = label(bound, "kubernetes.io/arch");
            Optional<KubeletDisk> disk = KubeletDisk.of(bound, cache);
            Set<String> inUse = inUse(node, pod);
            for (String image : images(pod)) {
                Instant there = cache.get(image);
                Optional<String> refusal = there != null
                        ? Optional.empty()
                        : platformRefusal(image, arch)
                                .or(() -> registries.refusal(role, node, image))
                                .or(() -> disk.filter(d -> !d.makeRoom(image, inUse))
                                        .map(d -> KubeletDisk.noSpace(image)));
                if (refusal.isPresent()) {
                    // The kubelet goes no further than the image it cannot pull.
                    pulls.add(new Pull(image, t, t.plus(REFUSED_AFTER), true, refusal.get()));
                    break;
                }
                if (there != null && !there.isAfter(t)) {
                    pulls.add(new Pull(image, t, t, false));
                    continue;
                }
                Instant finished = there != null ? there : t.plus(pull(gigabytes(image)));
                cache.putIfAbsent(image, finished);
                pulls.add(new Pull(image, t, finished, true));
                t = finished;
                if (there == null && disk.isPresent()) {
                    if (disk.get().underPressure(inUse)) {
                        evictions.put(uid, new Eviction(finished, disk.get().evictionMessage()));
                        break;
                    }
                    disk.get().collectPastHighThreshold(inUse);
                }
            }
            return List.copyOf(pulls);
        });
    }

    /** The images the node's pods that have not ended need, {@code pod}'s included: the collector keeps them. */
    private Set<String> inUse(String node, Pod pod) {
        Set<String> used = new java.util.HashSet<>(images(pod));
        reads.pods().stream()
                .filter(p -> node.equals(p.getSpec().getNodeName()))
                .filter(p -> p.getStatus() == null
                        || !Set.of("Succeeded", "Failed").contains(p.getStatus().getPhase()))
                .forEach(p -> used.addAll(images(p)));
        return used;
    }

    /**
     * Images published for some architectures only, by repository (the twin's own data): the official
     * PyTorch images are linux/amd64 only (https://hub.docker.com/r/pytorch/pytorch/tags, each tag's
     * OS/ARCH). Images not listed are taken to be published for every architecture the nodes have.
     */
    static final Map<String, Set<String>> PUBLISHED_FOR = Map.of(
            "pytorch/pytorch", Set.of("amd64"),
            "docker.io/pytorch/pytorch", Set.of("amd64"));

    /** containerd's refusal of an image with no manifest for the node's architecture. */
    static Optional<String> platformRefusal(String image, String architecture) {
        String repository = image.replaceFirst("@.*$", "").replaceFirst(":[^:/]+$", "");
        Set<String> platforms = PUBLISHED_FOR.get(repository);
        if (platforms == null || architecture == null || platforms.contains(architecture)) {
            return Optional.empty();
        }
        // The listed repositories are Docker Hub's: containerd names them in full.
        String reference = image.startsWith("docker.io/") ? image : "docker.io/" + image;
        return Optional.of(
                "failed to pull and unpack image \"" + reference + "\": no match for platform in manifest: not found");
    }

    /** The pod's pulls as planned; empty before the kubelet turned to its images. */
    Optional<List<Pull>> planned(Pod pod) {
        return Optional.ofNullable(plans.get(pod.getMetadata().getUid()));
    }

    /**
     * The pod as the kubelet shows it while its images are pulled at {@code now}: Pending, its
     * containers waiting (ContainerCreating; PodInitializing while it has init containers to run
     * first), and the Pulling and Pulled events due by then written. Returns the pod.
     */
    Pod waiting(KubernetesClient client, Pod pod, Instant now) {
        writeEvents(client, pod, now);
        Eviction eviction = evictions.get(pod.getMetadata().getUid());
        if (eviction != null && !eviction.at().isAfter(now)) {
            return evict(client, pod, eviction);
        }
        boolean initFirst = pod.getSpec().getInitContainers() != null
                && pod.getSpec().getInitContainers().stream().anyMatch(c -> !"Always".equals(c.getRestartPolicy()));
        String reason = initFirst ? "PodInitializing" : "ContainerCreating";
        Optional<Pull> failed = refused(planned(pod).orElse(List.of()))
                .filter(p -> !p.finished().isAfter(now));
        var statuses = pod.getSpec().getContainers().stream()
                .map(c -> waitingStatus(c, reason, failed, now))
                .toList();
        List<io.fabric8.kubernetes.api.model.ContainerStatus> initStatuses =
                failed.isEmpty() || pod.getSpec().getInitContainers() == null
                        ? pod.getStatus().getInitContainerStatuses()
                        : pod.getSpec().getInitContainers().stream()
                                .map(c -> waitingStatus(c, "PodInitializing", failed, now))
                                .toList();
        if (statuses.equals(pod.getStatus().getContainerStatuses())
                && java.util.Objects.equals(initStatuses, pod.getStatus().getInitContainerStatuses())) {
            return pod;
        }
        pod.getStatus().setContainerStatuses(statuses);
        pod.getStatus().setInitContainerStatuses(initStatuses);
        return client.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .resource(pod)
                .updateStatus();
    }

    /** The node controller's taint on a node with DiskPressure (https://kubernetes.io/docs/reference/labels-annotations-taints/#node-kubernetes-io-disk-pressure). */
    static final String DISK_PRESSURE_TAINT = "node.kubernetes.io/disk-pressure";

    /**
     * The pod evicted, as the kubelet fails it: phase Failed, reason Evicted, the DisruptionTarget
     * condition (reason TerminationByKubelet,
     * https://kubernetes.io/docs/concepts/workloads/pods/disruptions/#pod-disruption-conditions) and
     * an Evicted event; its node with the DiskPressure condition and the node controller's
     * {@value #DISK_PRESSURE_TAINT} NoSchedule taint. Stricter than the kubelet: the twin never lifts
     * the pressure (the kubelet does once the evicted pod's images are collected, after
     * evictionPressureTransitionPeriod, and a replacement pod would fill the disk again).
     */
    private Pod evict(KubernetesClient client, Pod pod, Eviction eviction) {
        String at = eviction.at().toString();
        client.nodes().withName(pod.getSpec().getNodeName()).edit(node -> {
            var conditions = new ArrayList<>(node.getStatus().getConditions());
            conditions.removeIf(c -> "DiskPressure".equals(c.getType()));
            conditions.add(new io.fabric8.kubernetes.api.model.NodeConditionBuilder()
                    .withType("DiskPressure")
                    .withStatus("True")
                    .withReason("KubeletHasDiskPressure")
                    .withMessage("kubelet has disk pressure")
                    .withLastTransitionTime(at)
                    .build());
            node.getStatus().setConditions(conditions);
            var taints = new ArrayList<io.fabric8.kubernetes.api.model.Taint>(
                    node.getSpec().getTaints() == null
                            ? List.of()
                            : node.getSpec().getTaints());
            if (taints.stream().noneMatch(t -> DISK_PRESSURE_TAINT.equals(t.getKey()))) {
                taints.add(new io.fabric8.kubernetes.api.model.Taint("NoSchedule", DISK_PRESSURE_TAINT, at, null));
            }
            node.getSpec().setTaints(taints);
            return node;
        });
        warning(client, pod, "Evicted", eviction.message(), eviction.at());
        pod.getStatus().setPhase("Failed");
        pod.getStatus().setReason("Evicted");
        pod.getStatus().setMessage(eviction.message());
        var conditions = new ArrayList<>(
                pod.getStatus().getConditions() == null
                        ? List.of()
                        : pod.getStatus().getConditions());
        conditions.add(new io.fabric8.kubernetes.api.model.PodConditionBuilder()
                .withType(io.trainplane.kubernetes.JobPods.DISRUPTION_TARGET)
                .withStatus("True")
                .withReason("TerminationByKubelet")
                .withMessage(eviction.message())
                .withLastTransitionTime(at)
                .build());
        pod.getStatus().setConditions(conditions);
        return client.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .resource(pod)
                .updateStatus();
    }

    /**
     * A container waiting for its image: {@code reason} while the pulls go on; for the image the
     * registry refused, ErrImagePull with containerd's error, then ImagePullBackOff after the
     * kubelet's first back-off.
     */
    private static io.fabric8.kubernetes.api.model.ContainerStatus waitingStatus(
            Container c, String reason, Optional<Pull> failed, Instant now) {
        boolean refused = failed.isPresent() && failed.get().image().equals(c.getImage());
        boolean backingOff = refused && !now.isBefore(failed.get().finished().plus(FIRST_BACK_OFF));
        return WaitingContainer.of(
                c,
                !refused ? reason : backingOff ? "ImagePullBackOff" : "ErrImagePull",
                !refused
                        ? null
                        : backingOff
                                ? "Back-off pulling image \"" + c.getImage() + "\": ErrImagePull: "
                                        + failed.get().refusal()
                                : failed.get().refusal());
    }

    /**
     * The kubelet's events for the pod's images due by {@code now}, each once: Pulling when a pull
     * starts, Pulled when it ends (with its duration and size), or Pulled "already present" for an
     * image the node has (pkg/kubelet/images/image_manager.go, EnsureImageExists).
     */
    void writeEvents(KubernetesClient client, Pod pod, Instant now) {
        var pulls = planned(pod).orElse(List.of());
        String uid = pod.getMetadata().getUid();
        for (Pull p : pulls) {
            if (!p.pulled()) {
                if (!p.started().isAfter(now) && written.add(uid + " " + p.image() + " present")) {
                    event(
                            client,
                            pod,
                            "Pulled",
                            "Container image \"" + p.image() + "\" already present on machine",
                            p.started());
                }
                continue;
            }
            if (!p.started().isAfter(now) && written.add(uid + " " + p.image() + " pulling")) {
                event(client, pod, "Pulling", "Pulling image \"" + p.image() + "\"", p.started());
            }
            if (p.refusal() != null) {
                // pkg/kubelet/images/image_manager.go: Failed "Failed to pull image …", then
                // "Error: ErrImagePull"; after the back-off, BackOff and "Error: ImagePullBackOff".
                Instant backOff = p.finished().plus(FIRST_BACK_OFF);
                if (!p.finished().isAfter(now) && written.add(uid + " " + p.image() + " failed")) {
                    warning(
                            client,
                            pod,
                            "Failed",
                            "Failed to pull image \"" + p.image() + "\": " + p.refusal(),
                            p.finished());
                    warning(client, pod, "Failed", "Error: ErrImagePull", p.finished());
                }
                if (!backOff.isAfter(now) && written.add(uid + " " + p.image() + " backoff")) {
                    event(client, pod, "BackOff", "Back-off pulling image \"" + p.image() + "\"", backOff);
                    warning(client, pod, "Failed", "Error: ImagePullBackOff", backOff);
                }
                continue;
            }
            if (!p.finished().isAfter(now) && written.add(uid + " " + p.image() + " pulled")) {
                Duration took = Duration.between(p.started(), p.finished());
                long bytes = Math.round(gigabytes(p.image()) * 1e9);
                event(
                        client,
                        pod,
                        "Pulled",
                        "Successfully pulled image \"" + p.image() + "\" in " + goDuration(took) + " ("
                                + goDuration(took) + " including waiting). Image size: " + bytes + " bytes.",
                        p.finished());
            }
        }
    }

    private static void event(KubernetesClient client, Pod pod, String reason, String message, Instant at) {
        event(client, pod, "Normal", reason, message, at);
    }

    private static void warning(KubernetesClient client, Pod pod, String reason, String message, Instant at) {
        event(client, pod, "Warning", reason, message, at);
    }

    private static void event(
            KubernetesClient client, Pod pod, String type, String reason, String message, Instant at) {
        String ns = pod.getMetadata().getNamespace();
        client.v1()
                .events()
                .inNamespace(ns)
                .resource(PodEvents.of(
                        pod,
                        pod.getMetadata().getName() + "." + reason.toLowerCase(Locale.ROOT) + "."
                                + Long.toHexString(at.toEpochMilli()) + "."
                                + Integer.toHexString(message.hashCode()),
                        type,
                        reason,
                        message,
                        VolumeMounts.KUBELET,
                        pod.getSpec().getNodeName(),
                        at))
                .createOr(existing -> existing.update());
    }

    /** A duration as Go's time.Duration prints one, to the millisecond: "58.48s", "1m7.2s". */
    static String goDuration(Duration d) {
        long ms = d.toMillis();
        long minutes = ms / 60_000;
        String seconds = java.math.BigDecimal.valueOf(ms % 60_000, 3)
                .stripTrailingZeros()
                .toPlainString();
        return (minutes > 0 ? minutes + "m" : "") + seconds + "s";
    }
}
