package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.trainplane.aws.eks.EksRequests;
import io.trainplane.kubernetes.JobPods;
import io.trainplane.kubernetes.PyTorchJobs;
import io.trainplane.kubernetes.TermExit;
import io.trainplane.kubernetes.WorkloadManifests;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a {@link ClusterFault} of the cluster itself does to it, as it happens in reality: nodes
 * registered with a taint, nodes cordoned, software removed once the training starts. It changes
 * only the nodes' and the objects' data; the scheduler, the DaemonSet controller, the device
 * plugins and the kubelet's volume mounts react to it as to any other change. Faults of the
 * workload (image, crash, checksum, accuracy) are {@link SimulatedWorkload}'s, and do nothing here.
 */
final class ClusterTrouble implements ClusterNodes.Replacements {
    /**
     * The taint of nodes dedicated to another team, the example of
     * https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/#example-use-cases
     * ({@code kubectl taint nodes nodename dedicated=groupName:NoSchedule}); nodes can register
     * with it from their bootstrap configuration (kubelet {@code registerWithTaints},
     * https://kubernetes.io/docs/reference/config-api/kubelet-config.v1beta1/), which EKS's node
     * group configuration does not show. Nothing the run or an add-on deploys tolerates it.
     */
    static final Taint FOREIGN_TAINT = new Taint("NoSchedule", "dedicated", null, "other-team");

    /**
     * The taint the node lifecycle controller adds to a cordoned node
     * (https://kubernetes.io/docs/reference/labels-annotations-taints/#node-kubernetes-io-unschedulable).
     */
    static final Taint CORDONED = new Taint("NoSchedule", "node.kubernetes.io/unschedulable", null, null);

    /**
     * How long a managed node group takes to replace a terminated instance: the Auto Scaling group
     * notices the unhealthy or terminated instance, launches another, and its kubelet registers
     * (https://docs.aws.amazon.com/autoscaling/ec2/userguide/ec2-auto-scaling-health-checks.html,
     * https://docs.aws.amazon.com/eks/latest/userguide/managed-node-groups.html); a few minutes.
     */
    static final Duration REPLACEMENT = Duration.ofMinutes(3);

    /**
     * How torchrun ends when signalled: its elastic agent raises SignalException, an exit of 1
     * (torch/distributed/elastic/multiprocessing/api.py, _terminate_process_handler).
     */
    static final int TORCHRUN_SIGNALLED = 1;

    /** The message the kubelet's graceful node shutdown gives a pod it terminates (pkg/kubelet/nodeshutdown). */
    static final String SHUTDOWN_MESSAGE = "Pod was terminated in response to imminent node shutdown.";

    private final ClusterFault fault;
    /** For the faults that interrupt the training: after how many epochs (0: half of them). */
    private final int afterEpochs;
    /** What the training's pods do, which says when it is in the epoch to interrupt. */
    private final PodBehaviour workload;
    /** Nodes lost, by name: when the instance that replaces each registers its node. */
    private final Map<String, Instant> replacedAt = new ConcurrentHashMap<>();
    /** Training Jobs (by uid) the fault has struck, once each. */
    private final Set<String> struck = ConcurrentHashMap.newKeySet();

    ClusterTrouble(ClusterFault fault, int afterEpochs, PodBehaviour workload) {
        this.fault = fault;
        this.afterEpochs = afterEpochs;
        this.workload = workload;
    }

    /** No trouble at all. */
    static ClusterTrouble none() {
        return new ClusterTrouble(null, 0, null);
    }

    /** The node of a lost instance is gone until its replacement registers, under a new name. */
    @Override
    public Optional<String> current(String name, Instant now) {
        String current = name;
        while (replacedAt.containsKey(current)) {
            if (now.isBefore(replacedAt.get(current))) {
                return Optional.empty();
            }
            current = replacementName(current);
        }
        return Optional.of(current);
    }

    /** Another private IP address in the same subnet: {@code ip-10-0-A-B} becomes {@code ip-10-0-A-B'}. */
    static String replacementName(String name) {
        int dot = name.indexOf('.');
        String host = dot < 0 ? name : name.substring(0, dot);
        int dash = host.lastIndexOf('-');
        int last = Integer.parseInt(host.substring(dash + 1));
        return host.substring(0, dash + 1) + ((last + 100) % 240 + 10) + (dot < 0 ? "" : name.substring(dot));
    }

    /**
     * {@link ClusterFault#NODE_LOST} and {@link ClusterFault#SPOT_INTERRUPTION}: once every pod of a
     * training Job runs and {@code afterEpochs} (by default half) of its epochs are done, during the
     * next one (the workload says when: {@link PodBehaviour#interruption}), the node of its last
     * worker goes. Its Job pods turn Failed with the DisruptionTarget condition
     * (https://kubernetes.io/docs/concepts/workloads/pods/disruptions/#pod-disruption-conditions:
     * {@code DeletionByPodGC} for a pod bound to a node that no longer exists,
     * {@code TerminationByKubelet} for the graceful node shutdown a spot interruption starts,
     * https://kubernetes.io/docs/concepts/cluster-administration/node-shutdown/#graceful-node-shutdown);
     * its other pods (DaemonSets') go with it. The node group replaces the instance after
     * {@link #REPLACEMENT} ({@link #current}).
     */
    void loseNodes(ClusterReads reads, Instant now) {
        if (fault != ClusterFault.NODE_LOST && fault != ClusterFault.SPOT_INTERRUPTION) {
            return;
        }
        for (Job job : reads.jobs()) {
            String uid = job.getMetadata().getUid();
            if (!"training".equals(job.getMetadata().getLabels().get(WorkloadManifests.COMPONENT))
                    || struck.contains(uid)) {
                continue;
            }
            strike(reads, job, JobController.JOB_NAME, JobController::index, now);
        }
        losePyTorchJobNodes(reads, now);
    }

    /**
     * The same for a training PyTorchJob (the training operator's pods, labelled with its name and
     * their replica type and index): once every replica runs, the node of its last Worker goes
     * (the Master's when it has no Worker).
     */
    private void losePyTorchJobNodes(ClusterReads reads, Instant now) {
        if (!reads.serves(PyTorchJobs.CONTEXT.getGroup(), PyTorchJobs.CONTEXT.getPlural())) {
            return;
        }
        for (GenericKubernetesResource pyTorchJob : reads.client()
                .genericKubernetesResources(PyTorchJobs.CONTEXT)
                .inAnyNamespace()
                .withLabel(WorkloadManifests.COMPONENT, "training")
                .list()
                .getItems()) {
            String uid = pyTorchJob.getMetadata().getUid();
            if (struck.contains(uid)) {
                continue;
            }
            strike(
                    reads,
                    PyTorchJobController.asJob(pyTorchJob),
                    PyTorchJobs.JOB_NAME_LABEL,
                    PyTorchJobController::rank,
                    now);
        }
    }

    /**
     * Once every pod of {@code training} runs (its completions: a PyTorchJob's replicas), when the
     * workload says the moment has come, the node of its last pod by {@code rank} goes, at that
     * planned moment whenever the control plane catches up with it.
     */
    private void strike(
            ClusterReads reads,
            Job training,
            String podLabel,
            java.util.function.ToIntFunction<Pod> rank,
            Instant now) {
        String ns = training.getMetadata().getNamespace();
        List<Pod> running = reads.podsLabeled(podLabel, training.getMetadata().getName()).stream()
                .filter(p -> ns.equals(p.getMetadata().getNamespace()))
                .filter(p -> "Running".equals(p.getStatus().getPhase())
                        && p.getStatus().getStartTime() != null)
                .toList();
        int workers = training.getSpec().getCompletions() == null
                ? 1
                : training.getSpec().getCompletions();
        if (running.isEmpty() || running.size() < workers) {
            return;
        }
        Instant started = running.stream()
                .map(p -> Instant.parse(p.getStatus().getStartTime()))
                .max(Instant::compareTo)
                .orElseThrow();
        int epochs = ClusterFault.interruptAfter(afterEpochs, SimulatedWorkload.epochs(training));
        Optional<Instant> strike = workload.interruption(training, started, epochs, now);
        if (strike.isEmpty()) {
            return;
        }
        struck.add(training.getMetadata().getUid());
        Pod last = running.stream().max(java.util.Comparator.comparingInt(rank)).orElseThrow();
        loseNode(reads, last.getSpec().getNodeName(), strike.get());
    }

    private void loseNode(ClusterReads reads, String node, Instant at) {
        KubernetesClient client = reads.client();
        boolean spot = fault == ClusterFault.SPOT_INTERRUPTION;
        for (Pod pod : reads.pods()) {
            if (!node.equals(pod.getSpec().getNodeName())) {
                continue;
            }
            String ns = pod.getMetadata().getNamespace();
            boolean ofJob = pod.getMetadata().getLabels() != null
                    && (pod.getMetadata().getLabels().containsKey(JobController.JOB_NAME)
                            || pod.getMetadata().getLabels().containsKey(PyTorchJobs.JOB_NAME_LABEL));
            String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
            if (!ofJob) {
                client.pods()
                        .inNamespace(ns)
                        .withName(pod.getMetadata().getName())
                        .delete();
                continue;
            }
            if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
                continue;
            }
            pod.getStatus().setPhase("Failed");
            List<PodCondition> conditions = new ArrayList<>(
                    pod.getStatus().getConditions() == null
                            ? List.of()
                            : pod.getStatus().getConditions());
            conditions.add(new PodConditionBuilder()
                    .withType(JobPods.DISRUPTION_TARGET)
                    .withStatus("True")
                    .withReason(spot ? "TerminationByKubelet" : "DeletionByPodGC")
                    .withMessage(spot ? SHUTDOWN_MESSAGE : "PodGC: node no longer exists")
                    .withLastTransitionTime(at.toString())
                    .build());
            pod.getStatus().setConditions(conditions);
            if (spot) {
                // The kubelet stops the container with SIGTERM: torchrun passes it on, the training
                // processes checkpoint and exit 143, and torchrun itself ends with 1 (SignalException),
                // a non-zero exit the Job's Ignore rule for DisruptionTarget must come before; under
                // TermExit's shell the container ends with 143.
                pod.getStatus().setReason("Terminated");
                pod.getStatus().setMessage(SHUTDOWN_MESSAGE);
                pod.getStatus()
                        .setContainerStatuses(JobController.terminated(
                                pod, signalledExit(pod), null, pod.getStatus().getStartTime(), at));
            }
            client.pods().inNamespace(ns).resource(pod).updateStatus();
        }
        replacedAt.put(node, at.plus(REPLACEMENT));
        client.nodes().withName(node).delete();
    }

    /** How the pod's container ends on SIGTERM: 143 under {@link TermExit}'s shell, else torchrun's own 1. */
    private static int signalledExit(Pod pod) {
        return TermExit.unwrap(pod.getSpec().getContainers().getFirst().getCommand())
                        .isPresent()
                ? TermExit.EXIT_CODE
                : TORCHRUN_SIGNALLED;
    }

    /** The node groups as their nodes register: with the fault's taint on those it touches. */
    List<ClusterNodes.Group> nodeGroups(List<ClusterNodes.Group> groups) {
        if (fault != ClusterFault.UNTOLERATED_TAINT && fault != ClusterFault.EVERY_NODE_TAINTED) {
            return groups;
        }
        return groups.stream()
                .map(g -> fault == ClusterFault.EVERY_NODE_TAINTED || !system(g)
                        ? new ClusterNodes.Group(
                                g.name(),
                                g.instanceType(),
                                g.count(),
                                g.capacityType(),
                                g.labels(),
                                withTaint(g.taints(), FOREIGN_TAINT),
                                g.zones(),
                                g.efaInterfaces(),
                                g.nodeRole(),
                                g.diskGiB())
                        : g)
                .toList();
    }

    /** What someone does on the cluster before its controllers catch up with the clock. */
    void act(KubernetesClient client) {
        if (fault == null) {
            return;
        }
        switch (fault) {
            case UNSCHEDULABLE -> cordonWorkers(client);
            case DEVICE_PLUGIN_REMOVED -> {
                if (trainingStarted(client)) {
                    removeDaemonSets(client, DevicePlugins.NVIDIA_IMAGE);
                }
            }
            case CSI_DRIVER_REMOVED -> {
                if (trainingStarted(client)) {
                    AddonWorkloads.remove(client, AddonWorkloads.EFS_CSI_DRIVER);
                }
            }
            default -> {}
        }
    }

    /** The system node group runs the add-ons; every other one (all of an existing cluster's) is a worker group. */
    private static boolean system(ClusterNodes.Group g) {
        return EksRequests.SYSTEM_POOL.equals(g.labels().get(EksRequests.NODE_POOL_LABEL));
    }

    private static List<Taint> withTaint(List<Taint> taints, Taint taint) {
        List<Taint> all = new ArrayList<>(taints);
        all.add(taint);
        return all;
    }

    /**
     * {@code kubectl cordon} of every worker node: spec.unschedulable, and the taint the node
     * lifecycle controller adds for it (https://kubernetes.io/docs/reference/kubectl/generated/kubectl_cordon/).
     */
    private static void cordonWorkers(KubernetesClient client) {
        for (Node node : client.nodes().list().getItems()) {
            var labels = node.getMetadata().getLabels();
            boolean system = labels != null && EksRequests.SYSTEM_POOL.equals(labels.get(EksRequests.NODE_POOL_LABEL));
            if (system || Boolean.TRUE.equals(node.getSpec().getUnschedulable())) {
                continue;
            }
            client.nodes().withName(node.getMetadata().getName()).edit(n -> {
                n.getSpec().setUnschedulable(true);
                List<Taint> taints = n.getSpec().getTaints() == null
                        ? List.of()
                        : n.getSpec().getTaints();
                n.getSpec().setTaints(withTaint(taints, CORDONED));
                return n;
            });
        }
    }

    /**
     * Whether the training was asked for: its Indexed Job exists (before its controller and the
     * scheduler, which act within the same instant, have placed its pods), or a training pod (the
     * PyTorchJob's).
     */
    private static boolean trainingStarted(KubernetesClient client) {
        return !client.batch()
                        .v1()
                        .jobs()
                        .inAnyNamespace()
                        .withLabel(WorkloadManifests.COMPONENT, "training")
                        .list()
                        .getItems()
                        .isEmpty()
                || !client.pods()
                        .inAnyNamespace()
                        .withLabel(WorkloadManifests.COMPONENT, "training")
                        .list()
                        .getItems()
                        .isEmpty();
    }

    /** Deletes the DaemonSets that run {@code image}; the DaemonSet controller's garbage collection takes their pods. */
    private static void removeDaemonSets(KubernetesClient client, String image) {
        for (DaemonSet d : client.apps().daemonSets().inAnyNamespace().list().getItems()) {
            boolean runsImage = d.getSpec().getTemplate().getSpec().getContainers().stream()
                    .map(Container::getImage)
                    .anyMatch(i -> i != null && i.contains(image));
            if (runsImage) {
                client.apps()
                        .daemonSets()
                        .inNamespace(d.getMetadata().getNamespace())
                        .withName(d.getMetadata().getName())
                        .delete();
            }
        }
    }
}
