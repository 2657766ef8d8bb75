package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorTermBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Deployment and DaemonSet controllers of kube-controller-manager, simply: a Deployment has
 * {@code replicas} pods (no ReplicaSet in between), a DaemonSet one pod on every node whose taints
 * it tolerates and whose labels match its selector and node affinity
 * (https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/#how-daemon-pods-are-scheduled:
 * the pod gets node affinity on that node's name and the scheduler binds it). Their pods, and pods
 * nobody owns, go through the same {@link Scheduler} and then run until deleted. Pods whose
 * Deployment or DaemonSet is gone are deleted, as the garbage collector does.
 */
final class WorkloadControllers {
    /** Annotation with the pod's creation time in simulated time (the mock server stamps wall-clock time). */
    static final String CREATED = "trainplane.local/created";

    private final KubernetesClient client;
    private final ClusterReads reads;
    private final Scheduler scheduler;
    private final ImagePulls pulls;

    WorkloadControllers(ClusterReads reads, Scheduler scheduler, ImagePulls pulls) {
        this.reads = reads;
        this.client = reads.client();
        this.scheduler = scheduler;
        this.pulls = pulls;
    }

    void reconcile(Instant now) {
        List<Node> nodes = reads.nodes();
        List<Deployment> deployments = reads.deployments();
        List<DaemonSet> daemonSets = reads.daemonSets();
        Set<String> owners = new HashSet<>();
        deployments.forEach(d -> owners.add(d.getMetadata().getUid()));
        daemonSets.forEach(d -> owners.add(d.getMetadata().getUid()));
        List<Pod> pods = reads.pods();
        for (Pod pod : pods) {
            OwnerReference owner = controller(pod);
            if (owner != null
                    && Set.of("Deployment", "DaemonSet").contains(owner.getKind())
                    && !owners.contains(owner.getUid())) {
                delete(pod);
            }
        }
        for (Deployment d : deployments) {
            deployment(d, pods, now);
        }
        for (DaemonSet d : daemonSets) {
            daemonSet(d, nodes, pods, now);
        }
        for (Pod pod : reads.pods()) {
            OwnerReference owner = controller(pod);
            if (owner == null || Set.of("Deployment", "DaemonSet").contains(owner.getKind())) {
                advance(pod, now);
            }
        }
    }

    /**
     * Scheduled, its sandbox ready {@link JobController#SCHEDULING} later, then Running once its
     * images are on the node ({@link ImagePulls}); such a pod runs until deleted.
     */
    private void advance(Pod pod, Instant now) {
        if (pod.getStatus() == null || !"Pending".equals(pod.getStatus().getPhase())) {
            return;
        }
        Pod scheduled = scheduler.schedule(pod, now);
        Instant bound = JobController.boundAt(scheduled);
        if (bound == null) {
            return;
        }
        if (now.isBefore(bound.plus(JobController.SCHEDULING))) {
            return;
        }
        Instant start = pulls.ready(scheduled, bound.plus(JobController.SCHEDULING));
        if (now.isBefore(start)) {
            pulls.waiting(client, scheduled, now);
            return;
        }
        pulls.writeEvents(client, scheduled, now);
        scheduled.getStatus().setContainerStatuses(null);
        scheduled.getStatus().setPhase("Running");
        scheduled.getStatus().setStartTime(start.toString());
        client.pods()
                .inNamespace(scheduled.getMetadata().getNamespace())
                .resource(scheduled)
                .updateStatus();
    }

    private void deployment(Deployment d, List<Pod> pods, Instant now) {
        int replicas = d.getSpec().getReplicas() == null ? 1 : d.getSpec().getReplicas();
        List<Pod> own = owned(pods, d);
        for (int i = own.size(); i < replicas; i++) {
            String name =
                    d.getMetadata().getName() + "-" + suffix(d.getMetadata().getUid(), 0) + "-"
                            + suffix(d.getMetadata().getUid() + now, i + 1);
            create(d, d.getSpec().getTemplate(), name, null, now);
        }
        for (int i = replicas; i < own.size(); i++) {
            delete(own.get(i));
        }
        own = owned(reads.pods(), d);
        int running = (int) own.stream()
                .filter(p -> "Running".equals(p.getStatus().getPhase()))
                .count();
        var status = new io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder()
                .withReplicas(own.size())
                .withUpdatedReplicas(own.size())
                .withReadyReplicas(running)
                .withAvailableReplicas(running)
                .withUnavailableReplicas(Math.max(0, replicas - running))
                .build();
        if (!status.equals(d.getStatus())) {
            d.setStatus(status);
            client.apps()
                    .deployments()
                    .inNamespace(d.getMetadata().getNamespace())
                    .resource(d)
                    .updateStatus();
        }
    }

    private void daemonSet(DaemonSet d, List<Node> nodes, List<Pod> pods, Instant now) {
        PodTemplateSpec template = d.getSpec().getTemplate();
        Map<String, Pod> byNode = new HashMap<>();
        for (Pod p : owned(pods, d)) {
            String node = targetNode(p);
            if (node == null || byNode.containsKey(node)) {
                delete(p);
            } else {
                byNode.put(node, p);
            }
        }
        Set<String> eligible = new HashSet<>();
        Pod probe = pod(d, template, "probe", null, now);
        for (Node node : nodes) {
            if (Scheduler.untolerated(node, probe.getSpec().getTolerations()).isEmpty()
                    && Scheduler.matchesSelectorAndAffinity(probe, node)) {
                eligible.add(node.getMetadata().getName());
            }
        }
        byNode.forEach((node, pod) -> {
            if (!eligible.contains(node)) {
                delete(pod);
            }
        });
        for (String node : eligible) {
            if (!byNode.containsKey(node)) {
                create(d, template, d.getMetadata().getName() + "-" + suffix(node, 0), node, now);
            }
        }
        List<Pod> own = owned(reads.pods(), d);
        int running = (int) own.stream()
                .filter(p -> "Running".equals(p.getStatus().getPhase()))
                .count();
        int scheduled = (int)
                own.stream().filter(p -> p.getSpec().getNodeName() != null).count();
        var status = new io.fabric8.kubernetes.api.model.apps.DaemonSetStatusBuilder()
                .withDesiredNumberScheduled(eligible.size())
                .withCurrentNumberScheduled(scheduled)
                .withNumberReady(running)
                .withNumberAvailable(running)
                .withNumberUnavailable(Math.max(0, eligible.size() - running))
                .withUpdatedNumberScheduled(scheduled)
                .withNumberMisscheduled(0)
                .build();
        if (!status.equals(d.getStatus())) {
            d.setStatus(status);
            client.apps()
                    .daemonSets()
                    .inNamespace(d.getMetadata().getNamespace())
                    .resource(d)
                    .updateStatus();
        }
    }

    /**
     * The tolerations the DaemonSet controller adds to its pods
     * (https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/#taints-and-tolerations).
     */
    private static List<Toleration> daemonTolerations() {
        List<Toleration> added = new ArrayList<>();
        for (String key : List.of("node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable")) {
            added.add(new TolerationBuilder()
                    .withKey(key)
                    .withOperator("Exists")
                    .withEffect("NoExecute")
                    .build());
        }
        for (String key : List.of(
                "node.kubernetes.io/disk-pressure",
                "node.kubernetes.io/memory-pressure",
                "node.kubernetes.io/pid-pressure",
                "node.kubernetes.io/unschedulable")) {
            added.add(new TolerationBuilder()
                    .withKey(key)
                    .withOperator("Exists")
                    .withEffect("NoSchedule")
                    .build());
        }
        return added;
    }

    private void create(HasMetadata owner, PodTemplateSpec template, String name, String node, Instant now) {
        PodCreations.create(client, owner, pod(owner, template, name, node, now), now);
    }

    private static Pod pod(HasMetadata owner, PodTemplateSpec template, String name, String node, Instant now) {
        Map<String, String> labels =
                template.getMetadata() == null || template.getMetadata().getLabels() == null
                        ? new HashMap<>()
                        : new HashMap<>(template.getMetadata().getLabels());
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(owner.getMetadata().getNamespace())
                .withLabels(labels)
                .withAnnotations(Map.of(CREATED, now.toString()))
                .withOwnerReferences(new OwnerReferenceBuilder()
                        .withApiVersion(owner.getApiVersion())
                        .withKind(owner.getKind())
                        .withName(owner.getMetadata().getName())
                        .withUid(owner.getMetadata().getUid())
                        .withController(true)
                        .build())
                .endMetadata()
                .withSpec(new io.fabric8.kubernetes.api.model.PodSpecBuilder(template.getSpec()).build())
                .withNewStatus()
                .withPhase("Pending")
                .endStatus()
                .build();
        if ("DaemonSet".equals(owner.getKind())) {
            List<Toleration> tolerations = new ArrayList<>(
                    pod.getSpec().getTolerations() == null
                            ? List.of()
                            : pod.getSpec().getTolerations());
            tolerations.addAll(daemonTolerations());
            pod.getSpec().setTolerations(tolerations);
            if (node != null) {
                // The controller's node affinity on the node's name; the template's own selector and
                // affinity were checked when the node was found eligible.
                pod.getSpec()
                        .setAffinity(new io.fabric8.kubernetes.api.model.AffinityBuilder()
                                .withNewNodeAffinity()
                                .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                                .withNodeSelectorTerms(new NodeSelectorTermBuilder()
                                        .withMatchFields(new NodeSelectorRequirementBuilder()
                                                .withKey("metadata.name")
                                                .withOperator("In")
                                                .withValues(node)
                                                .build())
                                        .build())
                                .endRequiredDuringSchedulingIgnoredDuringExecution()
                                .endNodeAffinity()
                                .build());
                pod.getSpec().setNodeSelector(null);
            }
        }
        return pod;
    }

    /** The node a DaemonSet pod is for: the one its node affinity names. */
    private static String targetNode(Pod pod) {
        try {
            return pod.getSpec()
                    .getAffinity()
                    .getNodeAffinity()
                    .getRequiredDuringSchedulingIgnoredDuringExecution()
                    .getNodeSelectorTerms()
                    .get(0)
                    .getMatchFields()
                    .get(0)
                    .getValues()
                    .get(0);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static List<Pod> owned(List<Pod> pods, HasMetadata owner) {
        return pods.stream()
                .filter(p -> {
                    OwnerReference ref = controller(p);
                    return ref != null && owner.getMetadata().getUid().equals(ref.getUid());
                })
                .sorted(java.util.Comparator.comparing(p -> p.getMetadata().getName()))
                .toList();
    }

    static OwnerReference controller(Pod pod) {
        if (pod.getMetadata().getOwnerReferences() == null) {
            return null;
        }
        return pod.getMetadata().getOwnerReferences().stream()
                .filter(r -> Boolean.TRUE.equals(r.getController()))
                .findFirst()
                .orElse(null);
    }

    private void delete(Pod pod) {
        client.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(pod.getMetadata().getName())
                .delete();
    }

    private static String suffix(String seed, int index) {
        return Integer.toString(Math.abs((seed + index).hashCode()) % 60466176, 36);
    }
}
