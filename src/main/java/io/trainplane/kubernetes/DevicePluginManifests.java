package io.trainplane.kubernetes;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.trainplane.aws.eks.EksRequests;
import io.trainplane.spec.Names;
import java.util.LinkedHashMap;
import java.util.Map;

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
    static final String IMAGE = "nvcr.io/nvidia/k8s-device-plugin:v0.17.0";
    public static final String EFA_NAME = "aws-efa-k8s-device-plugin-daemonset";
    static final String EFA_IMAGE = "public.ecr.aws/eks/aws-efa-k8s-device-plugin:v0.5.6";
    /** The extended resource the EFA plugin advertises, one per EFA interface of the node. */
    public static final String EFA_RESOURCE = "vpc.amazonaws.com/efa";

    private static final String DEVICE_PLUGINS_DIR = "/var/lib/kubelet/device-plugins";

    private DevicePluginManifests() {}

    public static DaemonSet daemonSet(Names names) {
        Map<String, String> selector = Map.of("name", NAME);
        Map<String, String> labels = new LinkedHashMap<>(names.labels());
        labels.putAll(selector);
        return new DaemonSetBuilder()
                .withNewMetadata()
                .withName(NAME)
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
                .withNewSpec()
                .withPriorityClassName("system-node-critical")
                .addNewToleration()
                .withKey("nvidia.com/gpu")
                .withOperator("Exists")
                .withEffect("NoSchedule")
                .endToleration()
                .addToNodeSelector(EksRequests.GPU_LABEL, "true")
                .addToNodeSelector(EksRequests.NODE_POOL_LABEL, EksRequests.WORKER_POOL)
                .addNewContainer()
                .withName("nvidia-device-plugin-ctr")
                .withImage(IMAGE)
                .addNewEnv()
                .withName("FAIL_ON_INIT_ERROR")
                .withValue("false")
                .endEnv()
                .withNewSecurityContext()
                .withAllowPrivilegeEscalation(false)
                .withNewCapabilities()
                .addToDrop("ALL")
                .endCapabilities()
                .endSecurityContext()
                .addNewVolumeMount()
                .withName("device-plugin")
                .withMountPath(DEVICE_PLUGINS_DIR)
                .endVolumeMount()
                .endContainer()
                .addNewVolume()
                .withName("device-plugin")
                .withNewHostPath()
                .withPath(DEVICE_PLUGINS_DIR)
                .endHostPath()
                .endVolume()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
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
        Map<String, String> selector = Map.of("name", EFA_NAME);
        Map<String, String> labels = new LinkedHashMap<>(names.labels());
        labels.putAll(selector);
        return new DaemonSetBuilder()
                .withNewMetadata()
                .withName(EFA_NAME)
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
                .withNewSpec()
                .withPriorityClassName("system-node-critical")
                .withHostNetwork(true)
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
                .addNewContainer()
                .withName("aws-efa-k8s-device-plugin")
                .withImage(EFA_IMAGE)
                .withNewResources()
                .addToRequests("cpu", new Quantity("10m"))
                .addToRequests("memory", new Quantity("20Mi"))
                .endResources()
                .withNewSecurityContext()
                .withAllowPrivilegeEscalation(false)
                .withNewCapabilities()
                .addToDrop("ALL")
                .endCapabilities()
                .endSecurityContext()
                .addNewVolumeMount()
                .withName("device-plugin")
                .withMountPath(DEVICE_PLUGINS_DIR)
                .endVolumeMount()
                .addNewVolumeMount()
                .withName("infiniband")
                .withMountPath("/dev/infiniband")
                .endVolumeMount()
                .endContainer()
                .addNewVolume()
                .withName("device-plugin")
                .withNewHostPath()
                .withPath(DEVICE_PLUGINS_DIR)
                .endHostPath()
                .endVolume()
                .addNewVolume()
                .withName("infiniband")
                .withNewHostPath()
                .withPath("/dev/infiniband")
                .endHostPath()
                .endVolume()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }
}
