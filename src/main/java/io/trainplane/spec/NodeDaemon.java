package io.trainplane.spec;

import java.util.ArrayList;
import java.util.List;

/**
 * A DaemonSet pod that runs on every worker node of a created cluster before the run's own pods,
 * and what it requests: what the node has left for the training is its allocatable less these.
 * The spec rules subtract them; the local twin's DaemonSets ask for exactly these.
 */
public record NodeDaemon(String name, long millicores, long memoryMiB) {
    /** EKS's kube-proxy add-on requests 100m CPU (its DaemonSet, eks/kube-proxy; kube-proxy's default manifest). */
    public static final NodeDaemon KUBE_PROXY = new NodeDaemon("kube-proxy", 100, 0);

    /**
     * The Amazon VPC CNI's aws-node requests 25m CPU (aws/amazon-vpc-cni-k8s, charts/aws-vpc-cni
     * values.yaml, resources.requests.cpu).
     */
    public static final NodeDaemon AWS_NODE = new NodeDaemon("aws-node", 25, 0);

    /** The EKS Pod Identity Agent, on every node (https://docs.aws.amazon.com/eks/latest/userguide/pod-id-agent-setup.html). */
    public static final NodeDaemon POD_IDENTITY_AGENT = new NodeDaemon("eks-pod-identity-agent", 10, 0);

    /** The EFS CSI driver's node plugin, on every node of a run with an EFS volume. */
    public static final NodeDaemon EFS_CSI_NODE = new NodeDaemon("efs-csi-node", 10, 0);
    /**
     * The FSx CSI driver's node DaemonSet: the twin gives it the EFS driver's request; the chart
     * (https://github.com/kubernetes-sigs/aws-fsx-csi-driver/tree/master/charts/aws-fsx-csi-driver)
     * sets none by default.
     */
    public static final NodeDaemon FSX_CSI_NODE = new NodeDaemon("fsx-csi-node", 10, 0);

    /** The EFA device plugin, which the run installs on its EFA worker nodes (DevicePluginManifests). */
    public static final NodeDaemon EFA_DEVICE_PLUGIN = new NodeDaemon("aws-efa-k8s-device-plugin-daemonset", 10, 20);

    /** The request as a Kubernetes quantity: {@code 100m}. */
    public String cpu() {
        return millicores + "m";
    }

    /** The memory request as a Kubernetes quantity ({@code 20Mi}), or null when it asks for none. */
    public String memory() {
        return memoryMiB == 0 ? null : memoryMiB + "Mi";
    }

    /**
     * What runs on each worker node of a created cluster with these nodes and volume. NVIDIA's
     * device plugin requests nothing (its static manifest sets no resources).
     */
    public static List<NodeDaemon> onWorkerNodes(NodeGroupSpec nodes, VolumeType volume) {
        List<NodeDaemon> daemons = new ArrayList<>(List.of(KUBE_PROXY, AWS_NODE, POD_IDENTITY_AGENT));
        if (volume == VolumeType.EFS) {
            daemons.add(EFS_CSI_NODE);
        }
        if (volume == VolumeType.FSX_LUSTRE) {
            daemons.add(FSX_CSI_NODE);
        }
        if (nodes.efa()) {
            daemons.add(EFA_DEVICE_PLUGIN);
        }
        return daemons;
    }
}
