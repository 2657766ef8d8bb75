package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.storage.CSIDriverBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.trainplane.kubernetes.DevicePluginManifests;
import java.util.List;
import java.util.Map;

/**
 * What an EKS add-on is on the cluster: the workloads it runs in kube-system. Installing one
 * creates them (or, for the networking add-ons EKS bootstrapped self-managed, adopts what
 * {@link BareCluster} made); the add-on is healthy when they run, which the scheduler decides.
 */
final class AddonWorkloads {
    static final String EFS_CSI_DRIVER = "aws-efs-csi-driver";
    static final String POD_IDENTITY_AGENT = "eks-pod-identity-agent";
    static final String EFS_CONTROLLER = "efs-csi-controller";
    static final String EFS_NODE = "efs-csi-node";
    /** The CSI driver's name, what a PersistentVolume's csi.driver says. */
    static final String EFS_DRIVER_NAME = "efs.csi.aws.com";

    static final String FSX_CSI_DRIVER = "aws-fsx-csi-driver";
    static final String FSX_CONTROLLER = "fsx-csi-controller";
    static final String FSX_NODE = "fsx-csi-node";
    static final String FSX_DRIVER_NAME = "fsx.csi.aws.com";
    /** The add-ons' images, in EKS's registry; the EFA device plugin's tag is the one a run installs. */
    static final String POD_IDENTITY_AGENT_IMAGE = BareCluster.REGISTRY + "/eks/eks-pod-identity-agent:v0.1.29";

    static final String EFS_CSI_IMAGE = BareCluster.REGISTRY + "/eks/aws-efs-csi-driver:v2.1.15";
    static final String FSX_CSI_IMAGE = BareCluster.REGISTRY + "/eks/aws-fsx-csi-driver:v1.5.0";
    static final String EFA_DEVICE_PLUGIN_IMAGE =
            BareCluster.REGISTRY + "/eks/" + DevicePluginManifests.EFA_IMAGE.substring("public.ecr.aws/eks/".length());
    /**
     * The CPU the twin's EKS Pod Identity Agent asks on each node
     * (https://docs.aws.amazon.com/eks/latest/userguide/pod-id-agent-setup.html: a DaemonSet on every
     * node); the twin's own figure, not taken from the product.
     */
    static final String POD_IDENTITY_AGENT_CPU = "10m";
    /**
     * The CPU the twin's EFS and FSx CSI node plugins ask on each node; the twin's own figure (the FSx
     * chart, https://github.com/kubernetes-sigs/aws-fsx-csi-driver/tree/master/charts/aws-fsx-csi-driver,
     * sets none by default).
     */
    static final String CSI_NODE_CPU = "10m";

    private AddonWorkloads() {}

    /** The Deployments and DaemonSets (by name, in kube-system) an add-on runs; empty for one the twin does not model. */
    record Workloads(List<String> deployments, List<String> daemonSets) {
        boolean isEmpty() {
            return deployments.isEmpty() && daemonSets.isEmpty();
        }
    }

    static Workloads of(String addon) {
        return switch (addon) {
            case EFS_CSI_DRIVER -> new Workloads(List.of(EFS_CONTROLLER), List.of(EFS_NODE));
            case FSX_CSI_DRIVER -> new Workloads(List.of(FSX_CONTROLLER), List.of(FSX_NODE));
            case POD_IDENTITY_AGENT -> new Workloads(List.of(), List.of(POD_IDENTITY_AGENT));
            case BareCluster.COREDNS -> new Workloads(List.of(BareCluster.COREDNS), List.of());
            case BareCluster.KUBE_PROXY -> new Workloads(List.of(), List.of(BareCluster.KUBE_PROXY));
            case "vpc-cni" -> new Workloads(List.of(), List.of(BareCluster.AWS_NODE));
            default -> new Workloads(List.of(), List.of());
        };
    }

    /** Creates the add-on's objects, keeping those already there (a self-managed CoreDNS, kube-proxy, aws-node). */
    static void install(KubernetesClient client, String addon) {
        switch (addon) {
            case EFS_CSI_DRIVER -> {
                if (deployment(client, EFS_CONTROLLER) == null) {
                    efsCsiDriver(client);
                }
            }
            case FSX_CSI_DRIVER -> {
                if (deployment(client, FSX_CONTROLLER) == null) {
                    fsxCsiDriver(client);
                }
            }
            case POD_IDENTITY_AGENT -> {
                if (daemonSet(client, POD_IDENTITY_AGENT) == null) {
                    // The agent runs on every node (host network, tolerating every taint):
                    // https://docs.aws.amazon.com/eks/latest/userguide/pod-id-agent-setup.html
                    BareCluster.daemonSet(client, POD_IDENTITY_AGENT, POD_IDENTITY_AGENT_IMAGE, POD_IDENTITY_AGENT_CPU);
                }
            }
            case BareCluster.COREDNS -> {
                if (deployment(client, BareCluster.COREDNS) == null) {
                    BareCluster.coreDns(client);
                }
            }
            case BareCluster.KUBE_PROXY -> {
                if (daemonSet(client, BareCluster.KUBE_PROXY) == null) {
                    BareCluster.kubeProxy(client);
                }
            }
            case "vpc-cni" -> {
                if (daemonSet(client, BareCluster.AWS_NODE) == null) {
                    BareCluster.awsNode(client);
                }
            }
            default -> {}
        }
    }

    /**
     * Deletes the add-on's objects: DeleteAddon removes the software from the cluster unless asked to
     * preserve it (https://docs.aws.amazon.com/eks/latest/APIReference/API_DeleteAddon.html, {@code preserve}).
     */
    static void remove(KubernetesClient client, String addon) {
        Workloads w = of(addon);
        for (String name : w.deployments()) {
            client.apps()
                    .deployments()
                    .inNamespace(BareCluster.SYSTEM)
                    .withName(name)
                    .delete();
        }
        for (String name : w.daemonSets()) {
            client.apps()
                    .daemonSets()
                    .inNamespace(BareCluster.SYSTEM)
                    .withName(name)
                    .delete();
        }
        if (EFS_CSI_DRIVER.equals(addon)) {
            client.storage().v1().csiDrivers().withName(EFS_DRIVER_NAME).delete();
        }
        if (FSX_CSI_DRIVER.equals(addon)) {
            client.storage().v1().csiDrivers().withName(FSX_DRIVER_NAME).delete();
        }
    }

    /**
     * Whether the add-on's pods run: each Deployment has its replicas available, each DaemonSet a
     * pod available on every node it is meant for (none when no node is eligible), as their
     * controllers last counted.
     */
    static boolean running(KubernetesClient client, String addon) {
        Workloads w = of(addon);
        for (String name : w.deployments()) {
            Deployment d = deployment(client, name);
            if (d == null || d.getStatus() == null) {
                return false;
            }
            int wanted = d.getSpec().getReplicas() == null ? 1 : d.getSpec().getReplicas();
            Integer available = d.getStatus().getAvailableReplicas();
            if (available == null || available < wanted) {
                return false;
            }
        }
        for (String name : w.daemonSets()) {
            DaemonSet d = daemonSet(client, name);
            if (d == null || d.getStatus() == null) {
                return false;
            }
            Integer desired = d.getStatus().getDesiredNumberScheduled();
            Integer available = d.getStatus().getNumberAvailable();
            if (desired == null || (available == null ? 0 : available) < desired) {
                return false;
            }
        }
        return true;
    }

    private static Deployment deployment(KubernetesClient client, String name) {
        return client.apps()
                .deployments()
                .inNamespace(BareCluster.SYSTEM)
                .withName(name)
                .get();
    }

    private static DaemonSet daemonSet(KubernetesClient client, String name) {
        return client.apps()
                .daemonSets()
                .inNamespace(BareCluster.SYSTEM)
                .withName(name)
                .get();
    }

    /**
     * The EFS CSI driver as the add-on installs it
     * (https://docs.aws.amazon.com/eks/latest/userguide/efs-csi.html,
     * https://github.com/kubernetes-sigs/aws-efs-csi-driver/tree/master/charts/aws-efs-csi-driver):
     * the controller Deployment (2 replicas, Linux nodes, tolerating only CriticalAddonsOnly and
     * NoExecute taints, so not a GPU node's NoSchedule one), the node DaemonSet on every node and
     * the CSIDriver object.
     */
    static void efsCsiDriver(KubernetesClient client) {
        csiDriver(
                client,
                new CsiDriver(
                        EFS_CSI_DRIVER,
                        EFS_CONTROLLER,
                        EFS_NODE,
                        EFS_DRIVER_NAME,
                        "efs-plugin",
                        EFS_CSI_IMAGE,
                        List.of("--endpoint=$(CSI_ENDPOINT)", "--delete-access-point-root-dir=false"),
                        CSI_NODE_CPU));
    }

    /**
     * The FSx for Lustre CSI driver as the EKS add-on installs it
     * (https://docs.aws.amazon.com/eks/latest/userguide/fsx-csi-create.html,
     * https://github.com/kubernetes-sigs/aws-fsx-csi-driver/tree/master/charts/aws-fsx-csi-driver):
     * the controller Deployment (2 replicas, service account fsx-csi-controller-sa), the node
     * DaemonSet and the CSIDriver object, laid out as the EFS driver's.
     */
    static void fsxCsiDriver(KubernetesClient client) {
        csiDriver(
                client,
                new CsiDriver(
                        FSX_CSI_DRIVER,
                        FSX_CONTROLLER,
                        FSX_NODE,
                        FSX_DRIVER_NAME,
                        "fsx-plugin",
                        FSX_CSI_IMAGE,
                        List.of("--endpoint=$(CSI_ENDPOINT)"),
                        CSI_NODE_CPU));
    }

    /** What differs between the CSI drivers' add-ons: names, image, arguments, the node plugin's CPU. */
    private record CsiDriver(
            String addon,
            String controller,
            String node,
            String driverName,
            String container,
            String image,
            List<String> args,
            String nodeCpu) {
        String prefix() {
            return controller.substring(0, controller.length() - "-controller".length());
        }
    }

    private static void csiDriver(KubernetesClient client, CsiDriver driver) {
        for (String account : List.of(driver.prefix() + "-controller-sa", driver.prefix() + "-node-sa")) {
            BareCluster.create(
                    client,
                    new ServiceAccountBuilder()
                            .withNewMetadata()
                            .withName(account)
                            .withNamespace(BareCluster.SYSTEM)
                            .endMetadata()
                            .build());
        }
        Map<String, String> labels = Map.of("app", driver.controller(), "app.kubernetes.io/name", driver.addon());
        BareCluster.create(
                client,
                new DeploymentBuilder()
                        .withNewMetadata()
                        .withName(driver.controller())
                        .withNamespace(BareCluster.SYSTEM)
                        .withLabels(labels)
                        .endMetadata()
                        .withNewSpec()
                        .withReplicas(2)
                        .withNewSelector()
                        .withMatchLabels(labels)
                        .endSelector()
                        .withNewTemplate()
                        .withNewMetadata()
                        .withLabels(labels)
                        .endMetadata()
                        .withSpec(new PodSpecBuilder()
                                .withServiceAccountName(driver.prefix() + "-controller-sa")
                                .withPriorityClassName("system-cluster-critical")
                                .withNodeSelector(Map.of("kubernetes.io/os", "linux"))
                                .withTolerations(
                                        new TolerationBuilder()
                                                .withKey("CriticalAddonsOnly")
                                                .withOperator("Exists")
                                                .build(),
                                        new TolerationBuilder()
                                                .withOperator("Exists")
                                                .withEffect("NoExecute")
                                                .withTolerationSeconds(300L)
                                                .build())
                                .addNewContainer()
                                .withName(driver.container())
                                .withImage(driver.image())
                                .withArgs(driver.args())
                                .withNewResources()
                                .withRequests(Map.of("cpu", new Quantity("10m"), "memory", new Quantity("40Mi")))
                                .endResources()
                                .endContainer()
                                .build())
                        .endTemplate()
                        .endSpec()
                        .build());
        BareCluster.daemonSet(client, driver.node(), driver.image(), driver.nodeCpu());
        BareCluster.create(
                client,
                new CSIDriverBuilder()
                        .withNewMetadata()
                        .withName(driver.driverName())
                        .endMetadata()
                        .withNewSpec()
                        .withAttachRequired(false)
                        .endSpec()
                        .build());
    }
}
