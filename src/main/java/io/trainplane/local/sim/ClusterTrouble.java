package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.trainplane.aws.eks.EksRequests;
import io.trainplane.kubernetes.WorkloadManifests;
import java.util.ArrayList;
import java.util.List;

/**
 * What a {@link ClusterFault} of the cluster itself does to it, as it happens in reality: nodes
 * registered with a taint, nodes cordoned, software removed once the training starts. It changes
 * only the nodes' and the objects' data; the scheduler, the DaemonSet controller, the device
 * plugins and the kubelet's volume mounts react to it as to any other change. Faults of the
 * workload (image, crash, checksum, accuracy) are {@link SimulatedWorkload}'s, and do nothing here.
 */
final class ClusterTrouble {
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

    private final ClusterFault fault;

    ClusterTrouble(ClusterFault fault) {
        this.fault = fault;
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
                                g.efaInterfaces())
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

    /** Whether a training pod exists: the Job's (or the PyTorchJob's) controller has created it. */
    private static boolean trainingStarted(KubernetesClient client) {
        return !client.pods()
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
