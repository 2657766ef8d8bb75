package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.trainplane.kubernetes.DevicePluginManifests;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A cluster that exists in the simulated account before any run, described by data: its name,
 * Kubernetes version, managed node groups, and what its owner installed on it. Its API server
 * holds exactly that: the objects of a bare cluster ({@link BareCluster}, with kube-proxy and the
 * VPC CNI), and the real objects of each installed piece of software.
 */
public record ExistingCluster(String name, String version, List<NodeGroup> nodeGroups, Set<Software> installed) {
    /**
     * The training operator's image on a cluster that has it already (an older build than the one
     * a run installs, training-operator-v1.9.4/training-operator.yaml).
     */
    static final String TRAINING_OPERATOR_IMAGE = "kubeflow/training-operator:v1-855e096";

    /**
     * Each node's root volume, GiB: what eksctl gives a node group (its user guide's
     * {@code volumeSize: 80}, https://docs.aws.amazon.com/eks/latest/eksctl/nodegroup-additional-volume-mappings.html;
     * raised from EKS's 20 GiB, which CUDA images overfill: eksctl-io/eksctl#780). A cluster that
     * kept 20 GiB would evict a run pulling the PyTorch image ({@link KubeletDisk}).
     */
    public static final int ROOT_VOLUME_GIB = 80;

    /**
     * A managed node group of the cluster: its nodes now and the least and most it scales to, labels,
     * taints ({@code key=value:NoSchedule}) and AWS tags.
     */
    public record NodeGroup(
            String name,
            String instanceType,
            int nodes,
            int minNodes,
            int maxNodes,
            Map<String, String> labels,
            List<String> taints,
            Map<String, String> tags) {
        /** A node group of a fixed size, untagged. */
        public NodeGroup(String name, String instanceType, int nodes, Map<String, String> labels, List<String> taints) {
            this(name, instanceType, nodes, nodes, nodes, labels, taints, Map.of());
        }
    }

    /** What can be installed on a cluster, as the objects its installation creates. */
    public enum Software {
        /** CoreDNS: the Deployment and the kube-dns Service. */
        COREDNS,
        /** The Amazon EFS CSI driver: CSIDriver efs.csi.aws.com, its controller and node DaemonSet. */
        AWS_EFS_CSI_DRIVER,
        /** The NVIDIA device plugin DaemonSet (advertises nvidia.com/gpu). */
        NVIDIA_DEVICE_PLUGIN,
        /** The EFA device plugin DaemonSet (advertises vpc.amazonaws.com/efa). */
        EFA_DEVICE_PLUGIN,
        /** The Kubeflow training operator: its CRDs and its Deployment in namespace kubeflow. */
        TRAINING_OPERATOR,
        /** The Kubeflow MPI operator v0.8.2: the MPIJob v2beta1 CRD and its Deployment in namespace mpi-operator. */
        MPI_OPERATOR
    }

    /**
     * trainplane-demo, which examples/existing-cluster.json uses (CPU, two workers, no volume):
     * two m5.xlarge nodes, CoreDNS, and the Kubeflow training operator so {@code launcher:
     * pytorchjob} works there too; no EFS CSI driver, no device plugins.
     */
    public static ExistingCluster demo(String name, String version) {
        return new ExistingCluster(
                name,
                version,
                List.of(new NodeGroup("standard-workers", "m5.xlarge", 2, Map.of(), List.of())),
                Set.of(Software.COREDNS, Software.TRAINING_OPERATOR));
    }

    /**
     * trainplane-warm, which examples/warm-cluster.json uses: a system node group of two m5.large
     * nodes (CoreDNS and the operators run there) and a warm GPU node group, {@code gpu-workers}:
     * g5.xlarge, tainted as EKS's GPU node groups are, at zero nodes between runs (0 to 4), tagged
     * for Trainplane to scale ({@value io.trainplane.aws.eks.WarmNodegroups#WARM_TAG}); the NVIDIA
     * device plugin and the Kubeflow training operator are installed.
     */
    public static ExistingCluster warm(String name, String version) {
        return new ExistingCluster(
                name,
                version,
                List.of(
                        new NodeGroup("system", "m5.large", 2, Map.of(), List.of()),
                        new NodeGroup(
                                "gpu-workers",
                                "g5.xlarge",
                                0,
                                0,
                                4,
                                Map.of(),
                                List.of("nvidia.com/gpu=true:NoSchedule"),
                                Map.of(io.trainplane.aws.eks.WarmNodegroups.WARM_TAG, "true"))),
                Set.of(Software.COREDNS, Software.NVIDIA_DEVICE_PLUGIN, Software.TRAINING_OPERATOR));
    }

    public ExistingCluster {
        nodeGroups = List.copyOf(nodeGroups);
        installed = Set.copyOf(installed);
    }

    /** Creates what this cluster holds in {@code client}'s server (its nodes come with its node groups). */
    void install(KubernetesClient client) {
        BareCluster.bootstrap(client, false);
        BareCluster.nodeAgents(client);
        for (Software s : installed) {
            switch (s) {
                case COREDNS -> BareCluster.coreDns(client);
                case AWS_EFS_CSI_DRIVER -> AddonWorkloads.efsCsiDriver(client);
                case NVIDIA_DEVICE_PLUGIN ->
                    nodeDaemon(client, "nvidia-device-plugin-daemonset", DevicePluginManifests.IMAGE);
                case EFA_DEVICE_PLUGIN ->
                    nodeDaemon(client, "aws-efa-k8s-device-plugin-daemonset", AddonWorkloads.EFA_DEVICE_PLUGIN_IMAGE);
                case TRAINING_OPERATOR -> trainingOperator(client);
                case MPI_OPERATOR -> mpiOperator(client);
            }
        }
    }

    /** A DaemonSet on every node, whatever its taints (a device plugin advertises nothing where its hardware is missing). */
    private static void nodeDaemon(KubernetesClient client, String name, String image) {
        var spec = new io.fabric8.kubernetes.api.model.PodSpecBuilder()
                .withPriorityClassName("system-node-critical")
                .addNewToleration()
                .withOperator("Exists")
                .endToleration()
                .addNewContainer()
                .withName(name)
                .withImage(image)
                .withNewResources()
                .withRequests(Map.of("cpu", new Quantity("10m"), "memory", new Quantity("20Mi")))
                .endResources()
                .endContainer()
                .build();
        BareCluster.create(
                client,
                new DaemonSetBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(BareCluster.SYSTEM)
                        .endMetadata()
                        .withNewSpec()
                        .withNewSelector()
                        .addToMatchLabels("name", name)
                        .endSelector()
                        .withNewTemplate()
                        .withNewMetadata()
                        .addToLabels("name", name)
                        .endMetadata()
                        .withSpec(spec)
                        .endTemplate()
                        .endSpec()
                        .build());
    }

    /**
     * The Kubeflow training operator v1.9 as its standalone manifests install it: namespace
     * kubeflow, the PyTorchJob CRD (the published one, {@link KubeflowCrd}), the training-operator
     * Deployment and its PyTorchJob webhook ({@link AdmissionWebhooks#PYTORCHJOB}).
     */
    static void trainingOperator(KubernetesClient client) {
        var webhook = AdmissionWebhooks.PYTORCHJOB;
        client.admissionRegistration()
                .v1()
                .validatingWebhookConfigurations()
                .resource(
                        new io.fabric8.kubernetes.api.model.admissionregistration.v1
                                        .ValidatingWebhookConfigurationBuilder()
                                .withNewMetadata()
                                .withName(webhook.configuration())
                                .endMetadata()
                                .addNewWebhook()
                                .withName(webhook.name())
                                .withFailurePolicy("Fail")
                                .withSideEffects("None")
                                .withAdmissionReviewVersions("v1")
                                .withNewClientConfig()
                                .withNewService()
                                .withName("training-operator")
                                .withNamespace(PyTorchJobController.OPERATOR_NAMESPACE)
                                .withPath("/validate-kubeflow-org-v1-pytorchjob")
                                .endService()
                                .endClientConfig()
                                .addNewRule()
                                .withApiGroups(webhook.group())
                                .withApiVersions(webhook.version())
                                .withResources(webhook.plural())
                                .withOperations("CREATE", "UPDATE")
                                .endRule()
                                .endWebhook()
                                .build())
                .create();
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(PyTorchJobController.OPERATOR_NAMESPACE)
                        .endMetadata()
                        .build())
                .create();
        client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .resource(KubeflowCrd.definition())
                .create();
        BareCluster.create(
                client,
                new DeploymentBuilder()
                        .withNewMetadata()
                        .withName("training-operator")
                        .withNamespace(PyTorchJobController.OPERATOR_NAMESPACE)
                        .addToLabels("control-plane", "kubeflow-training-operator")
                        .endMetadata()
                        .withNewSpec()
                        .withReplicas(1)
                        .withNewSelector()
                        .addToMatchLabels("control-plane", "kubeflow-training-operator")
                        .endSelector()
                        .withNewTemplate()
                        .withNewMetadata()
                        .addToLabels("control-plane", "kubeflow-training-operator")
                        .endMetadata()
                        .withNewSpec()
                        .addNewContainer()
                        .withName("training-operator")
                        .withImage(TRAINING_OPERATOR_IMAGE)
                        .endContainer()
                        .endSpec()
                        .endTemplate()
                        .endSpec()
                        .build());
    }

    /**
     * The MPI operator as its release manifest installs it: namespace mpi-operator, the MPIJob CRD
     * (the published one, {@link KubeflowCrd}) and the mpi-operator Deployment with the manifest's image.
     */
    static void mpiOperator(KubernetesClient client) {
        var release = io.trainplane.kubernetes.TrainingOperator.MPI;
        client.namespaces()
                .resource(new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(release.namespace())
                        .endMetadata()
                        .build())
                .create();
        client.apiextensions()
                .v1()
                .customResourceDefinitions()
                .resource(KubeflowCrd.definition(release))
                .create();
        String image = io.trainplane.kubernetes.TrainingOperator.objects(release).stream()
                .filter(o -> "Deployment".equals(o.getKind()))
                .map(o -> io.fabric8.kubernetes.client.utils.Serialization.jsonMapper()
                        .convertValue(o, io.fabric8.kubernetes.api.model.apps.Deployment.class))
                .map(d -> d.getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0)
                        .getImage())
                .findFirst()
                .orElseThrow();
        BareCluster.create(
                client,
                new DeploymentBuilder()
                        .withNewMetadata()
                        .withName(release.deployment())
                        .withNamespace(release.namespace())
                        .addToLabels("app", "mpi-operator")
                        .endMetadata()
                        .withNewSpec()
                        .withReplicas(1)
                        .withNewSelector()
                        .addToMatchLabels("app", "mpi-operator")
                        .endSelector()
                        .withNewTemplate()
                        .withNewMetadata()
                        .addToLabels("app", "mpi-operator")
                        .endMetadata()
                        .withNewSpec()
                        .addNewContainer()
                        .withName("mpi-operator")
                        .withImage(image)
                        .endContainer()
                        .endSpec()
                        .endTemplate()
                        .endSpec()
                        .build());
    }
}
