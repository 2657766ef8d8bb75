package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.trainplane.local.sim.InstanceTypes.InstanceType;
import java.util.List;
import java.util.Map;

/**
 * Extended resources come from device plugins: a node's {@code nvidia.com/gpu} and
 * {@code vpc.amazonaws.com/efa} exist in its capacity and allocatable only while the plugin's pod
 * runs on it (https://kubernetes.io/docs/concepts/extend-kubernetes/compute-storage-net/device-plugins/:
 * "the node status is updated to advertise that the node has N devices of that resource"). The
 * plugin is recognised by its image: the NVIDIA device plugin (nvcr.io/nvidia/k8s-device-plugin,
 * https://github.com/NVIDIA/k8s-device-plugin) advertises the instance's GPUs, the EFA device
 * plugin (aws-efa-k8s-device-plugin, https://docs.aws.amazon.com/eks/latest/userguide/node-efa.html)
 * the EFA interfaces attached to the instance.
 */
final class DevicePlugins {
    static final String NVIDIA_IMAGE = "nvidia/k8s-device-plugin";
    static final String EFA_IMAGE = "aws-efa-k8s-device-plugin";

    private DevicePlugins() {}

    /** Sets each node's capacity and allocatable: the instance type's, plus what its running plugins advertise. */
    static void sync(ClusterReads reads, List<ClusterNodes.Group> groups) {
        KubernetesClient client = reads.client();
        List<Pod> pods = reads.pods();
        for (Node node : reads.nodes()) {
            String group = node.getMetadata().getLabels().get(ClusterNodes.NODEGROUP_LABEL);
            ClusterNodes.Group g = groups.stream()
                    .filter(x -> x.name().equals(group))
                    .findFirst()
                    .orElse(null);
            if (g == null) {
                continue;
            }
            InstanceType type = InstanceTypes.require(g.instanceType());
            Map<String, Quantity> capacity = ClusterNodes.capacity(g);
            Map<String, Quantity> allocatable = ClusterNodes.allocatable(g);
            String name = node.getMetadata().getName();
            if (type.gpus() > 0 && running(pods, name, NVIDIA_IMAGE)) {
                capacity.put(ClusterNodes.GPU, new Quantity(Integer.toString(type.gpus())));
                allocatable.put(ClusterNodes.GPU, new Quantity(Integer.toString(type.gpus())));
            }
            int efa = Math.min(g.efaInterfaces(), type.efaInterfaces());
            if (efa > 0 && running(pods, name, EFA_IMAGE)) {
                capacity.put(ClusterNodes.EFA, new Quantity(Integer.toString(efa)));
                allocatable.put(ClusterNodes.EFA, new Quantity(Integer.toString(efa)));
            }
            if (!capacity.equals(node.getStatus().getCapacity())
                    || !allocatable.equals(node.getStatus().getAllocatable())) {
                node.getStatus().setCapacity(capacity);
                node.getStatus().setAllocatable(allocatable);
                client.nodes().resource(node).updateStatus();
            }
        }
    }

    private static boolean running(List<Pod> pods, String node, String image) {
        return pods.stream()
                .filter(p -> node.equals(p.getSpec().getNodeName()))
                .filter(p -> "Running".equals(p.getStatus().getPhase()))
                .flatMap(p -> p.getSpec().getContainers().stream())
                .map(Container::getImage)
                .anyMatch(i -> i != null && i.contains(image));
    }
}
