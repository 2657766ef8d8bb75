package io.trainplane.kubernetes;

import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.trainplane.aws.eks.EksRequests;
import io.trainplane.spec.Names;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The NVIDIA device plugin, which makes a node's GPUs schedulable as {@code nvidia.com/gpu}.
 * Installed on clusters a run creates with GPU nodes (the EKS GPU AMI has the drivers, not the
 * plugin); it goes when the cluster goes.
 */
public final class DevicePluginManifests {
    public static final String NAME = "nvidia-device-plugin-daemonset";
    public static final String NAMESPACE = "kube-system";
    static final String IMAGE = "nvcr.io/nvidia/k8s-device-plugin:v0.17.0";

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
                .withMountPath("/var/lib/kubelet/device-plugins")
                .endVolumeMount()
                .endContainer()
                .addNewVolume()
                .withName("device-plugin")
                .withNewHostPath()
                .withPath("/var/lib/kubelet/device-plugins")
                .endHostPath()
                .endVolume()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }
}
