package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.trainplane.local.sim.InstanceTypes.InstanceType;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The Node objects of a cluster's managed node groups: a node group that is ACTIVE has
 * {@code desiredSize} nodes, each with the labels EKS and the kubelet put on it, the node group's
 * taints, and the capacity and allocatable of its instance type; nodes go when their node group is
 * deleted (EKS drains and terminates them) and pods bound to a node that is gone go with it (the
 * pod garbage collector).
 */
final class ClusterNodes {
    /** Label EKS puts on a managed node group's nodes (https://docs.aws.amazon.com/eks/latest/userguide/managed-node-groups.html). */
    static final String NODEGROUP_LABEL = "eks.amazonaws.com/nodegroup";

    static final String CAPACITY_TYPE_LABEL = "eks.amazonaws.com/capacityType";
    static final String INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type";
    /** Extended resources, which exist on a node only while their device plugin runs there ({@link DevicePlugins}). */
    static final String GPU = "nvidia.com/gpu";
    /** The node's root file system, where containerd keeps the images ({@link KubeletDisk}). */
    static final String EPHEMERAL_STORAGE = "ephemeral-storage";

    static final String EFA = "vpc.amazonaws.com/efa";

    /**
     * A node group as its nodes see it: EKS's view of an ACTIVE node group ({@link SimulatedEks#activeNodegroups}).
     * {@code zones} are the Availability Zones of its subnets, nodes spread over them in turn;
     * {@code efaInterfaces} the EFA interfaces its launch template attaches to each instance.
     */
    record Group(
            String name,
            String instanceType,
            int count,
            String capacityType,
            Map<String, String> labels,
            List<Taint> taints,
            List<String> zones,
            int efaInterfaces,
            String nodeRole,
            int diskGiB) {}

    /**
     * Instances a node group is replacing: the node of the instance that would be named {@code name}
     * is, at {@code now}, named as the answer says, or has none yet (the new instance still boots).
     */
    interface Replacements {
        Optional<String> current(String name, Instant now);
    }

    static final Replacements NONE = (name, now) -> Optional.of(name);

    private ClusterNodes() {}

    /** Makes the nodes of {@code groups} exist and no others; deletes the pods of nodes that went. */
    static void sync(ClusterReads reads, List<Group> groups, Instant now) {
        sync(reads, groups, now, NONE);
    }

    /** As {@link #sync(ClusterReads, List, Instant)}, with instances being replaced as {@code replacements} says. */
    static void sync(ClusterReads reads, List<Group> groups, Instant now, Replacements replacements) {
        KubernetesClient client = reads.client();
        Map<String, Map.Entry<Group, Integer>> wanted = new LinkedHashMap<>();
        for (Group g : groups) {
            for (int i = 0; i < g.count(); i++) {
                var member = Map.entry(g, i);
                replacements.current(name(g, i), now).ifPresent(name -> wanted.put(name, member));
            }
        }
        List<Node> existing = reads.nodes();
        Set<String> have = existing.stream().map(n -> n.getMetadata().getName()).collect(Collectors.toSet());
        for (Node node : existing) {
            String name = node.getMetadata().getName();
            if (!wanted.containsKey(name) && node.getMetadata().getLabels().containsKey(NODEGROUP_LABEL)) {
                client.nodes().withName(name).delete();
                for (var pod : reads.pods()) {
                    if (name.equals(pod.getSpec().getNodeName())) {
                        client.pods()
                                .inNamespace(pod.getMetadata().getNamespace())
                                .withName(pod.getMetadata().getName())
                                .delete();
                    }
                }
            }
        }
        wanted.forEach((name, member) -> {
            if (!have.contains(name)) {
                client.nodes()
                        .resource(node(member.getKey(), member.getValue(), name, now))
                        .create();
            }
        });
    }

    /**
     * The {@code index}th node of the group. Labels: the node group's own labels, EKS's
     * {@code eks.amazonaws.com/nodegroup} and {@code eks.amazonaws.com/capacityType}, and the
     * kubelet's well-known ones (https://kubernetes.io/docs/reference/labels-annotations-taints/:
     * kubernetes.io/arch, kubernetes.io/os, kubernetes.io/hostname, node.kubernetes.io/instance-type,
     * topology.kubernetes.io/region and zone). The name is the instance's private DNS name, as on EKS.
     */
    static Node node(Group g, int index, Instant now) {
        return node(g, index, name(g, index), now);
    }

    /** The {@code index}th node of the group, its instance named {@code name} (a replacement's differs). */
    static Node node(Group g, int index, String name, Instant now) {
        InstanceType type = InstanceTypes.require(g.instanceType());
        String zone = g.zones().isEmpty()
                ? AwsService.REGION + "a"
                : g.zones().get(index % g.zones().size());
        Map<String, String> labels = new LinkedHashMap<>(g.labels());
        labels.put(NODEGROUP_LABEL, g.name());
        labels.put(CAPACITY_TYPE_LABEL, g.capacityType());
        labels.put(INSTANCE_TYPE_LABEL, type.name());
        labels.put("beta.kubernetes.io/instance-type", type.name());
        labels.put("topology.kubernetes.io/region", AwsService.REGION);
        labels.put("topology.kubernetes.io/zone", zone);
        labels.put("kubernetes.io/arch", arch(type));
        labels.put("kubernetes.io/os", "linux");
        labels.put("kubernetes.io/hostname", name);
        Map<String, Quantity> capacity = capacity(g);
        Map<String, Quantity> allocatable = allocatable(g);
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .withProviderID("aws:///" + zone + "/i-"
                        + String.format(Locale.ROOT, "%017x", (long) Math.abs(name.hashCode())))
                .withTaints(g.taints())
                .endSpec()
                .withNewStatus()
                .withCapacity(capacity)
                .withAllocatable(allocatable)
                .withConditions(new NodeConditionBuilder()
                        .withType("Ready")
                        .withStatus("True")
                        .withReason("KubeletReady")
                        .withMessage("kubelet is posting ready status")
                        .withLastTransitionTime(now.toString())
                        .build())
                .endStatus()
                .build();
    }

    /** The instance's private DNS name, as EKS names its node. */
    private static String name(Group g, int index) {
        return "ip-10-0-" + (Math.abs(g.name().hashCode()) % 200) + "-" + (10 + index) + "." + AwsService.REGION
                + ".compute.internal";
    }

    /** Every instance type of the table is x86_64 (Graviton types would be arm64). */
    private static String arch(InstanceType type) {
        return type.architecture();
    }

    /**
     * What the kubelet of a node of {@code g} reports before any device plugin runs: cpu, memory,
     * pods, and its root file system as ephemeral-storage.
     */
    static Map<String, Quantity> capacity(Group g) {
        InstanceType type = InstanceTypes.require(g.instanceType());
        Map<String, Quantity> capacity = new LinkedHashMap<>();
        capacity.put("cpu", new Quantity(Integer.toString(type.vcpus())));
        capacity.put("memory", new Quantity(type.memoryMiB() + "Mi"));
        capacity.put("pods", new Quantity(Integer.toString(type.maxPods())));
        capacity.put(EPHEMERAL_STORAGE, new Quantity(g.diskGiB() + "Gi"));
        return capacity;
    }

    /**
     * Capacity less what the EKS AMI's kubelet reserves, as the twin computes it ({@link EksAmiKubelet});
     * ephemeral-storage less the eviction threshold
     * (https://kubernetes.io/docs/tasks/administer-cluster/reserve-compute-resources/).
     */
    static Map<String, Quantity> allocatable(Group g) {
        Map<String, Quantity> allocatable = capacity(g);
        InstanceType type = InstanceTypes.require(g.instanceType());
        EksAmiKubelet.Allocatable left = EksAmiKubelet.allocatable(type.name(), type.vcpus(), type.memoryMiB());
        allocatable.put("cpu", new Quantity(left.millicores() + "m"));
        allocatable.put("memory", new Quantity(left.memoryMiB() + "Mi"));
        allocatable.put(
                EPHEMERAL_STORAGE,
                new Quantity(Math.round(g.diskGiB() * 1024 * (1 - NodeRootVolume.NODEFS_EVICTION)) + "Mi"));
        return allocatable;
    }
}
