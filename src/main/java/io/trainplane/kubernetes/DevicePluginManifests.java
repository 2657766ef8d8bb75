package io.trainplane.kubernetes;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.trainplane.aws.eks.EksRequests;
import io.trainplane.spec.Names;
import io.trainplane.spec.NodeDaemon;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The device plugins, which make a node's devices schedulable as extended resources: NVIDIA's
 * ({@code nvidia.com/gpu}) and AWS's for EFA ({@code vpc.amazonaws.com/efa}). Installed on
 * clusters a run creates, on its worker nodes, when they have GPUs or EFA interfaces (the EKS
 * accelerated AMIs have the drivers, not the plugins); they carry the run's label and go when the
 * cluster goes.
 */
public final class DevicePluginManifests {
    public static final String NAME = "nvidia-device-plugin-daemonset";
    public static final String NAMESPACE = "kube-system";
    public static final String IMAGE = "nvcr.io/nvidia/k8s-device-plugin:v0.17.0";
    public static final String EFA_NAME = "aws-efa-k8s-device-plugin-daemonset";
    public static final String EFA_IMAGE = "public.ecr.aws/eks/aws-efa-k8s-device-plugin:v0.5.6";
    /** The extended resource the EFA plugin advertises, one per EFA interface of the node. */
    public static final String EFA_RESOURCE = "vpc.amazonaws.com/efa";

    private static final String DEVICE_PLUGIN = "device-plugin";
    private static final String DEVICE_PLUGINS_DIR = "/var/lib/kubelet/device-plugins";
    private static final String INFINIBAND = "infiniband";
    private static final String INFINIBAND_DIR = "/dev/infiniband";

    private DevicePluginManifests() {}

    /**
     * NVIDIA's device plugin on the run's GPU worker nodes (its static manifest,
     * https://github.com/NVIDIA/k8s-device-plugin, deployments/static/nvidia-device-plugin.yml),
     * tolerating their GPU taint.
     */
    public static DaemonSet daemonSet(Names names) {
        return pluginDaemonSet(
                names,
                NAME,
                pluginContainer("nvidia-device-plugin-ctr", IMAGE)
                        .addNewEnv()
                        .withName("FAIL_ON_INIT_ERROR")
                        .withValue("false")
                        .endEnv()
                        .build(),
                pod -> pod.addNewToleration()
                        .withKey(EksRequests.GPU_TAINT_KEY)
                        .withOperator("Exists")
                        .withEffect("NoSchedule")
                        .endToleration()
                        .addToNodeSelector(EksRequests.GPU_LABEL, "true")
                        .addToNodeSelector(EksRequests.NODE_POOL_LABEL, EksRequests.WORKER_POOL));
    }

    /**
     * The AWS EFA device plugin, as EKS documents it for EFA node groups
     * (https://docs.aws.amazon.com/eks/latest/userguide/node-efa.html) and its chart ships it
     * (aws/eks-charts, stable/aws-efa-k8s-device-plugin): on the host network, no service account
     * token, the kubelet's device-plugin directory and the node's {@code /dev/infiniband}. On the
     * run's worker nodes only (all of them have EFA when the run asks for it), tolerating their GPU
     * taint, and an EFA taint should the nodes carry one.
     */
    public static DaemonSet efaDaemonSet(Names names) {
        return pluginDaemonSet(
                names,
                EFA_NAME,
                pluginContainer("aws-efa-k8s-device-plugin", EFA_IMAGE)
                        .withNewResources()
                        .addToRequests("cpu", new Quantity(NodeDaemon.EFA_DEVICE_PLUGIN.cpu()))
                        .addToRequests("memory", new Quantity(NodeDaemon.EFA_DEVICE_PLUGIN.memory()))
                        .endResources()
                        .addNewVolumeMount()
                        .withName(INFINIBAND)
                        .withMountPath(INFINIBAND_DIR)
                        .endVolumeMount()
                        .build(),
                pod -> pod.withHostNetwork(true)
                        .withAutomountServiceAccountToken(false)
                        .addNewToleration()
                        .withKey(EksRequests.GPU_TAINT_KEY)
                        .withOperator("Exists")
                        .withEffect("NoSchedule")
                        .endToleration()
                        .addNewToleration()
                        .withKey(EFA_RESOURCE)
                        .withOperator("Exists")
                        .withEffect("NoSchedule")
                        .endToleration()
                        .addToNodeSelector(EksRequests.NODE_POOL_LABEL, EksRequests.WORKER_POOL)
                        .addNewVolume()
                        .withName(INFINIBAND)
                        .withNewHostPath()
                        .withPath(INFINIBAND_DIR)
                        .endHostPath()
                        .endVolume());
    }

    /**
     * What every device plugin's DaemonSet has: the run's labels and the {@code name} selector,
     * rolling updates, the {@code system-node-critical} priority (a node's devices must not wait
     * behind the pods that use them), its one container and the kubelet's device-plugin directory
     * (the socket through which it registers); {@code pod} adds the plugin's own placement, host
     * settings and volumes.
     */
    private static DaemonSet pluginDaemonSet(
            Names names, String name, Container container, Consumer<PodSpecBuilder> pod) {
        Map<String, String> selector = Map.of("name", name);
        Map<String, String> labels = new LinkedHashMap<>(names.labels());
        labels.putAll(selector);
        PodSpecBuilder spec = new PodSpecBuilder()
                .withPriorityClassName("system-node-critical")
                .addToContainers(container)
                .addNewVolume()
                .withName(DEVICE_PLUGIN)
                .withNewHostPath()
                .withPath(DEVICE_PLUGINS_DIR)
                .endHostPath()
                .endVolume();
        pod.accept(spec);
        return new DaemonSetBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(NAMESPACE)
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .withNewSelector()
                .withMatchLabels(selector)
                .endSelector()
                .withNewUpdateStrategy()
                .withType("RollingUpdate")
                .endUpdateStrategy()
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(labels)
                .endMetadata()
                .withSpec(spec.build())
                .endTemplate()
                .endSpec()
                .build();
    }

    /** A plugin's container: no privilege escalation, no capabilities, the device-plugin directory mounted. */
    private static ContainerBuilder pluginContainer(String name, String image) {
        return new ContainerBuilder()
                .withName(name)
                .withImage(image)
                .withNewSecurityContext()
                .withAllowPrivilegeEscalation(false)
                .withNewCapabilities()
                .addToDrop("ALL")
                .endCapabilities()
                .endSecurityContext()
                .addNewVolumeMount()
                .withName(DEVICE_PLUGIN)
                .withMountPath(DEVICE_PLUGINS_DIR)
                .endVolumeMount();
    }
}
