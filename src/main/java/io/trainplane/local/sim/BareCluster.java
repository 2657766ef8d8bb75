package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a cluster's API server holds when EKS hands it over: the namespaces Kubernetes creates
 * (default, kube-system, kube-public, kube-node-lease:
 * https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces/#initial-namespaces),
 * the default RBAC roles (only the user-facing ClusterRoles cluster-admin, admin, edit and view, and
 * the cluster-admin binding to system:masters, of the many system: ones:
 * https://kubernetes.io/docs/reference/access-authn-authz/rbac/#user-facing-roles), no CRD, and
 * the networking add-ons EKS installs self-managed unless CreateCluster's
 * bootstrapSelfManagedAddons is false ("the default networking add-ons include vpc-cni, coredns,
 * and kube-proxy": https://docs.aws.amazon.com/eks/latest/APIReference/API_CreateCluster.html,
 * https://docs.aws.amazon.com/eks/latest/userguide/eks-networking-add-ons.html): the CoreDNS
 * Deployment (2 replicas, https://docs.aws.amazon.com/eks/latest/userguide/managing-coredns.html)
 * with its kube-dns Service, and the kube-proxy and aws-node DaemonSets, with the requests,
 * tolerations and node affinity of the manifests EKS applies.
 */
public final class BareCluster {
    public static final List<String> NAMESPACES = List.of("default", "kube-system", "kube-public", "kube-node-lease");
    public static final String SYSTEM = "kube-system";
    public static final String COREDNS = "coredns";
    public static final String KUBE_PROXY = "kube-proxy";
    public static final String AWS_NODE = "aws-node";
    /** EKS's image registry for us-east-1 add-ons (https://docs.aws.amazon.com/eks/latest/userguide/add-ons-images.html). */
    static final String REGISTRY = "602401143452.dkr.ecr.us-east-1.amazonaws.com";
    /** The images of the node agents and DNS of a new EKS cluster, in EKS's registry. */
    static final String KUBE_PROXY_IMAGE = REGISTRY + "/eks/kube-proxy:v1.35.0-minimal-eksbuild.2";

    static final String AWS_NODE_IMAGE = REGISTRY + "/amazon-k8s-cni:v1.20.4-eksbuild.1";
    static final String COREDNS_IMAGE = REGISTRY + "/eks/coredns:v1.12.4-eksbuild.1";

    private BareCluster() {}

    /** Creates the objects of a new cluster in {@code client}'s server. */
    static void bootstrap(KubernetesClient client, boolean networkingAddons) {
        for (String ns : NAMESPACES) {
            client.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(ns)
                            .addToLabels("kubernetes.io/metadata.name", ns)
                            .endMetadata()
                            .build())
                    .create();
        }
        rbac(client);
        if (networkingAddons) {
            coreDns(client);
            nodeAgents(client);
        }
    }

    /** kube-proxy and the VPC CNI (aws-node), without which no node of the cluster gets Ready. */
    static void nodeAgents(KubernetesClient client) {
        kubeProxy(client);
        awsNode(client);
    }

    /** EKS's kube-proxy add-on asks 100m CPU on each node (its DaemonSet; kube-proxy's default manifest). */
    static final String KUBE_PROXY_CPU = "100m";
    /**
     * The Amazon VPC CNI's aws-node asks 25m CPU (aws/amazon-vpc-cni-k8s, charts/aws-vpc-cni/values.yaml,
     * resources.requests.cpu).
     */
    static final String AWS_NODE_CPU = "25m";

    static void kubeProxy(KubernetesClient client) {
        daemonSet(client, KUBE_PROXY, KUBE_PROXY_IMAGE, KUBE_PROXY_CPU);
    }

    static void awsNode(KubernetesClient client) {
        daemonSet(client, AWS_NODE, AWS_NODE_IMAGE, AWS_NODE_CPU);
    }

    private static void rbac(KubernetesClient client) {
        create(
                client,
                new ClusterRoleBuilder()
                        .withNewMetadata()
                        .withName("cluster-admin")
                        .addToLabels("kubernetes.io/bootstrapping", "rbac-defaults")
                        .endMetadata()
                        .withRules(
                                new PolicyRuleBuilder()
                                        .withApiGroups("*")
                                        .withResources("*")
                                        .withVerbs("*")
                                        .build(),
                                new PolicyRuleBuilder()
                                        .withNonResourceURLs("*")
                                        .withVerbs("*")
                                        .build())
                        .build());
        for (String role : List.of("admin", "edit", "view")) {
            create(
                    client,
                    new ClusterRoleBuilder()
                            .withNewMetadata()
                            .withName(role)
                            .addToLabels("kubernetes.io/bootstrapping", "rbac-defaults")
                            .endMetadata()
                            .withNewAggregationRule()
                            .addNewClusterRoleSelector()
                            .addToMatchLabels("rbac.authorization.k8s.io/aggregate-to-" + role, "true")
                            .endClusterRoleSelector()
                            .endAggregationRule()
                            .build());
        }
        create(
                client,
                new ClusterRoleBindingBuilder()
                        .withNewMetadata()
                        .withName("cluster-admin")
                        .addToLabels("kubernetes.io/bootstrapping", "rbac-defaults")
                        .endMetadata()
                        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "cluster-admin")
                        .addNewSubject()
                        .withApiGroup("rbac.authorization.k8s.io")
                        .withKind("Group")
                        .withName("system:masters")
                        .endSubject()
                        .build());
    }

    /** Linux nodes of the architectures EKS builds the add-on for, as the add-on manifests' node affinity says. */
    static List<NodeSelectorRequirement> linux() {
        return new ArrayList<>(List.of(
                new NodeSelectorRequirementBuilder()
                        .withKey("kubernetes.io/os")
                        .withOperator("In")
                        .withValues("linux")
                        .build(),
                new NodeSelectorRequirementBuilder()
                        .withKey("kubernetes.io/arch")
                        .withOperator("In")
                        .withValues("amd64", "arm64")
                        .build()));
    }

    static void coreDns(KubernetesClient client) {
        Map<String, String> labels = Map.of("k8s-app", "kube-dns", "eks.amazonaws.com/component", COREDNS);
        create(
                client,
                new ServiceAccountBuilder()
                        .withNewMetadata()
                        .withName(COREDNS)
                        .withNamespace(SYSTEM)
                        .endMetadata()
                        .build());
        create(
                client,
                new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName(COREDNS)
                        .withNamespace(SYSTEM)
                        .endMetadata()
                        .addToData(
                                "Corefile",
                                ".:53 {\n    errors\n    health {\n        lameduck 5s\n      }\n    ready\n"
                                        + "    kubernetes cluster.local in-addr.arpa ip6.arpa {\n"
                                        + "      pods insecure\n      fallthrough in-addr.arpa ip6.arpa\n    }\n"
                                        + "    prometheus :9153\n    forward . /etc/resolv.conf\n    cache 30\n"
                                        + "    loop\n    reload\n    loadbalance\n}\n")
                        .build());
        PodSpec spec = new PodSpecBuilder()
                .withServiceAccountName(COREDNS)
                .withPriorityClassName("system-cluster-critical")
                .withTolerations(
                        new TolerationBuilder()
                                .withKey("CriticalAddonsOnly")
                                .withOperator("Exists")
                                .build(),
                        new TolerationBuilder()
                                .withKey("node-role.kubernetes.io/control-plane")
                                .withEffect("NoSchedule")
                                .build())
                .withAffinity(new AffinityBuilder()
                        .withNewNodeAffinity()
                        .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                        .addNewNodeSelectorTerm()
                        .withMatchExpressions(linux())
                        .endNodeSelectorTerm()
                        .endRequiredDuringSchedulingIgnoredDuringExecution()
                        .endNodeAffinity()
                        .build())
                .addNewContainer()
                .withName(COREDNS)
                .withImage(COREDNS_IMAGE)
                .withArgs("-conf", "/etc/coredns/Corefile")
                .withNewResources()
                .withRequests(Map.of("cpu", new Quantity("100m"), "memory", new Quantity("70Mi")))
                .withLimits(Map.of("memory", new Quantity("170Mi")))
                .endResources()
                .endContainer()
                .build();
        create(
                client,
                new DeploymentBuilder()
                        .withNewMetadata()
                        .withName(COREDNS)
                        .withNamespace(SYSTEM)
                        .withLabels(labels)
                        .endMetadata()
                        .withNewSpec()
                        .withReplicas(2)
                        .withNewSelector()
                        .withMatchLabels(Map.of("k8s-app", "kube-dns"))
                        .endSelector()
                        .withNewTemplate()
                        .withNewMetadata()
                        .withLabels(labels)
                        .endMetadata()
                        .withSpec(spec)
                        .endTemplate()
                        .endSpec()
                        .build());
        create(
                client,
                new ServiceBuilder()
                        .withNewMetadata()
                        .withName("kube-dns")
                        .withNamespace(SYSTEM)
                        .withLabels(Map.of("k8s-app", "kube-dns", "kubernetes.io/name", "CoreDNS"))
                        .endMetadata()
                        .withNewSpec()
                        .withClusterIP("10.100.0.10")
                        .withSelector(Map.of("k8s-app", "kube-dns"))
                        .addNewPort()
                        .withName("dns")
                        .withPort(53)
                        .withProtocol("UDP")
                        .endPort()
                        .addNewPort()
                        .withName("dns-tcp")
                        .withPort(53)
                        .withProtocol("TCP")
                        .endPort()
                        .endSpec()
                        .build());
    }

    /**
     * A node agent: on every Linux node whatever its taints (the manifests tolerate everything with
     * {@code operator: Exists}) except Fargate, hybrid and Auto Mode nodes.
     */
    static void daemonSet(KubernetesClient client, String name, String image, String cpu) {
        Map<String, String> labels = Map.of("k8s-app", name);
        List<NodeSelectorRequirement> where = linux();
        where.add(new NodeSelectorRequirementBuilder()
                .withKey("eks.amazonaws.com/compute-type")
                .withOperator("NotIn")
                .withValues("fargate", "hybrid", "auto")
                .build());
        create(
                client,
                new DaemonSetBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace(SYSTEM)
                        .withLabels(labels)
                        .endMetadata()
                        .withNewSpec()
                        .withNewSelector()
                        .withMatchLabels(labels)
                        .endSelector()
                        .withNewTemplate()
                        .withNewMetadata()
                        .withLabels(labels)
                        .endMetadata()
                        .withNewSpec()
                        .withHostNetwork(true)
                        .withPriorityClassName("system-node-critical")
                        .addNewToleration()
                        .withOperator("Exists")
                        .endToleration()
                        .withNewAffinity()
                        .withNewNodeAffinity()
                        .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                        .addNewNodeSelectorTerm()
                        .withMatchExpressions(where)
                        .endNodeSelectorTerm()
                        .endRequiredDuringSchedulingIgnoredDuringExecution()
                        .endNodeAffinity()
                        .endAffinity()
                        .addNewContainer()
                        .withName(name)
                        .withImage(image)
                        .withNewResources()
                        .withRequests(Map.of("cpu", new Quantity(cpu)))
                        .endResources()
                        .endContainer()
                        .endSpec()
                        .endTemplate()
                        .endSpec()
                        .build());
    }

    static void create(KubernetesClient client, HasMetadata object) {
        client.resource(object).create();
    }
}
