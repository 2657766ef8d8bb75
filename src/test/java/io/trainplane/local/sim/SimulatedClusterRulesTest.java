package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.trainplane.aws.eks.EksRequests;
import io.trainplane.kubernetes.DevicePluginManifests;
import io.trainplane.kubernetes.PyTorchJobs;
import io.trainplane.local.asl.SimulatedClock;
import io.trainplane.local.iam.Authorizer;
import io.trainplane.spec.Names;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.eks.model.CreateNodegroupRequest;
import software.amazon.awssdk.services.eks.model.TaintEffect;

/**
 * The simulated clusters refuse what EKS refuses: a created cluster is bare (no CRD, CoreDNS
 * waiting for a node it may run on), and a pod binds only to a node whose taints it tolerates,
 * whose labels match its selector and affinity and whose allocatable still fits it, GPUs existing
 * only while the device plugin runs. Every case in bounded simulated time.
 */
class SimulatedClusterRulesTest {
    static final String GPU_TAINT =
            "0/1 nodes are available: 1 node(s) had untolerated taint(s). preemption: 0/1 nodes "
                    + "are available: 1 Preemption is not helpful for scheduling.";

    final SimulatedClock clock = new SimulatedClock(SimAccount.START);
    final SimulatedNetwork network = SimulatedNetwork.stack();
    final SimulatedCapacity capacity = SimulatedCapacity.stack(SimAccount.START);
    final SimulatedClusters clusters = new SimulatedClusters(new SimulatedWorkload(), clock);
    final SimulatedEks eks = new SimulatedEks(new CallLog(), clock, new FaultPlan(), Authorizer.ALLOW_ALL, clusters)
            .sharing(network)
            .launchingInto(
                    capacity,
                    new SimulatedCloudControl(new CallLog(), clock, new FaultPlan(), Authorizer.ALLOW_ALL)
                            .reading(network, capacity));

    @AfterEach
    void close() {
        clusters.close();
    }

    /** An ACTIVE cluster with the given node groups ACTIVE, reconciled once. */
    KubernetesClient cluster(String name, CreateNodegroupRequest... groups) {
        eks.createCluster(SimAccount.cluster(name, null, null).toBuilder()
                .resourcesVpcConfig(v -> v.subnetIds(SimulatedNetwork.SUBNET_1A, SimulatedNetwork.SUBNET_1B))
                .build());
        clock.advance(SimulatedEks.CLUSTER_CREATING);
        for (CreateNodegroupRequest g : groups) {
            eks.createNodegroup(g.toBuilder().clusterName(name).build());
        }
        clock.advance(SimulatedEks.NODEGROUP_CREATING);
        clusters.reconcile(eks);
        return clusters.cluster(name).orElseThrow().kubernetes().admin();
    }

    static CreateNodegroupRequest gpuNodes(int count) {
        return CreateNodegroupRequest.builder()
                .nodegroupName("gpu")
                .nodeRole("arn:aws:iam::000000000000:role/node")
                .subnets(SimulatedNetwork.SUBNET_1A)
                .instanceTypes("g5.2xlarge")
                .scalingConfig(s -> s.minSize(count).maxSize(count).desiredSize(count))
                .labels(Map.of("trainplane/gpu", "true", "pool", "workers", EksRequests.NODE_POOL_LABEL, "workers"))
                .taints(t -> t.key("nvidia.com/gpu").value("true").effect(TaintEffect.NO_SCHEDULE))
                .build();
    }

    static CreateNodegroupRequest cpuNodes(int count) {
        return CreateNodegroupRequest.builder()
                .nodegroupName("system")
                .nodeRole("arn:aws:iam::000000000000:role/node")
                .subnets(SimulatedNetwork.SUBNET_1A, SimulatedNetwork.SUBNET_1B)
                .instanceTypes("c5.2xlarge")
                .scalingConfig(s -> s.minSize(count).maxSize(count).desiredSize(count))
                .labels(Map.of("pool", "system", "rank", "3"))
                .build();
    }

    /** Runs the controllers for {@code seconds} of simulated time, a reconciliation per second. */
    void run(int seconds) {
        for (int i = 0; i < seconds; i++) {
            clock.advance(Duration.ofSeconds(1));
            clusters.reconcile(eks);
        }
    }

    static Pod pod(String name, Map<String, String> requests, boolean toleratesGpu) {
        var b = new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("default")
                .withAnnotations(Map.of(WorkloadControllers.CREATED, SimAccount.START.toString()))
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("main")
                .withImage("busybox")
                .withNewResources()
                .withRequests(requests.entrySet().stream()
                        .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> new Quantity(e.getValue()))))
                .endResources()
                .endContainer()
                .endSpec()
                .withNewStatus()
                .withPhase("Pending")
                .endStatus();
        if (toleratesGpu) {
            b.editSpec()
                    .addNewToleration()
                    .withKey("nvidia.com/gpu")
                    .withOperator("Exists")
                    .withEffect("NoSchedule")
                    .endToleration()
                    .endSpec();
        }
        return b.build();
    }

    static Pod get(KubernetesClient api, String name) {
        return api.pods().inNamespace("default").withName(name).get();
    }

    static String unschedulable(Pod pod) {
        return Scheduler.scheduledCondition(pod)
                .filter(c -> "False".equals(c.getStatus()) && "Unschedulable".equals(c.getReason()))
                .map(c -> c.getMessage())
                .orElse(null);
    }

    @Test
    void aCreatedClusterIsBareAndHasNoCrdUntilOneIsInstalled() {
        KubernetesClient api = cluster("bare");
        assertThat(api.namespaces().list().getItems())
                .extracting(n -> n.getMetadata().getName())
                .containsExactlyInAnyOrderElementsOf(BareCluster.NAMESPACES);
        assertThat(api.rbac().clusterRoles().withName("cluster-admin").get()).isNotNull();
        assertThat(api.apiextensions().v1().customResourceDefinitions().list().getItems())
                .isEmpty();
        assertThat(api.apps()
                        .deployments()
                        .inNamespace("kube-system")
                        .withName("coredns")
                        .get()
                        .getSpec()
                        .getReplicas())
                .isEqualTo(2);
        assertThat(api.apps().daemonSets().inNamespace("kube-system").list().getItems())
                .extracting(d -> d.getMetadata().getName())
                .containsExactlyInAnyOrder("kube-proxy", "aws-node");
        assertThat(api.storage().v1().csiDrivers().list().getItems()).isEmpty();
        var pytorchJobs = api.genericKubernetesResources(PyTorchJobs.CONTEXT).inNamespace("default");
        assertThatThrownBy(() -> pytorchJobs.list())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode())
                        .isEqualTo(404));

        api.apiextensions()
                .v1()
                .customResourceDefinitions()
                .resource(KubeflowCrd.definition())
                .create();
        var job = pytorchJobs
                .resource(new GenericKubernetesResourceBuilder()
                        .withApiVersion("kubeflow.org/v1")
                        .withKind("PyTorchJob")
                        .withNewMetadata()
                        .withName("j")
                        .endMetadata()
                        .addToAdditionalProperties("spec", Map.of("pytorchReplicaSpecs", Map.of()))
                        .build())
                .create();
        job.getAdditionalProperties().put("status", Map.of("startTime", "2025-01-01T00:00:00Z"));
        pytorchJobs.resource(job).updateStatus();
        // The status subresource: a plain update does not change the status.
        var fetched = pytorchJobs.withName("j").get();
        fetched.getAdditionalProperties().put("status", Map.of("startTime", "changed"));
        pytorchJobs.resource(fetched).update();
        assertThat(PyTorchJobs.status(pytorchJobs.withName("j").get(), "startTime"))
                .isEqualTo("2025-01-01T00:00:00Z");
    }

    @Test
    void nodesCarryEksLabelsTaintsAndTheAllocatableOfTheEksAmi() {
        KubernetesClient api = cluster("nodes", gpuNodes(1), cpuNodes(2));
        List<Node> nodes = api.nodes().list().getItems();
        assertThat(nodes).hasSize(3);
        Node gpu = nodes.stream()
                .filter(n -> "gpu".equals(n.getMetadata().getLabels().get(ClusterNodes.NODEGROUP_LABEL)))
                .findFirst()
                .orElseThrow();
        assertThat(gpu.getMetadata().getLabels())
                .containsEntry("node.kubernetes.io/instance-type", "g5.2xlarge")
                .containsEntry("eks.amazonaws.com/capacityType", "ON_DEMAND")
                .containsEntry("topology.kubernetes.io/zone", "us-east-1a")
                .containsEntry("kubernetes.io/arch", "amd64")
                .containsEntry("trainplane/gpu", "true")
                .containsKey("kubernetes.io/hostname");
        assertThat(gpu.getSpec().getTaints()).singleElement().satisfies(t -> assertThat(
                        t.getKey() + "=" + t.getValue() + ":" + t.getEffect())
                .isEqualTo("nvidia.com/gpu=true:NoSchedule"));
        // 8 vCPU: 8000m - (60 + 10 + 5 + 5 + 4 × 2.5); 32 GiB - (11Mi × 58 pods + 255Mi) - 100Mi.
        assertThat(gpu.getStatus().getAllocatable())
                .containsEntry("cpu", new Quantity("7910m"))
                .containsEntry("memory", new Quantity("31775Mi"))
                .containsEntry("pods", new Quantity("58"))
                .doesNotContainKey(ClusterNodes.GPU);

        eks.deleteNodegroup(r -> r.clusterName("nodes").nodegroupName("gpu"));
        run(1);
        assertThat(api.nodes().list().getItems()).hasSize(2);
    }

    @Test
    void aPodThatDoesNotTolerateTheGpuTaintStaysPendingWithTheSchedulersMessageAndAnEvent() {
        KubernetesClient api = cluster("taint", gpuNodes(1));
        api.pods()
                .inNamespace("default")
                .resource(pod("p", Map.of("cpu", "1"), false))
                .create();
        run(10);

        Pod p = get(api, "p");
        assertThat(p.getSpec().getNodeName()).isNull();
        assertThat(p.getStatus().getPhase()).isEqualTo("Pending");
        assertThat(unschedulable(p)).isEqualTo(GPU_TAINT);
        assertThat(api.v1().events().inNamespace("default").list().getItems()).anySatisfy(e -> {
            assertThat(e.getReason()).isEqualTo("FailedScheduling");
            assertThat(e.getInvolvedObject().getName()).isEqualTo("p");
            assertThat(e.getMessage()).isEqualTo(GPU_TAINT);
        });
        // CoreDNS tolerates no GPU taint either: on a cluster of GPU nodes only it never runs.
        assertThat(api.pods()
                        .inNamespace("kube-system")
                        .withLabel("k8s-app", "kube-dns")
                        .list()
                        .getItems())
                .hasSize(2)
                .allSatisfy(c -> assertThat(unschedulable(c)).isEqualTo(GPU_TAINT));
        // kube-proxy and aws-node tolerate everything: one each on the node.
        assertThat(api.pods()
                        .inNamespace("kube-system")
                        .withLabel("k8s-app", "kube-proxy")
                        .list()
                        .getItems())
                .singleElement()
                .satisfies(k -> assertThat(k.getStatus().getPhase()).isEqualTo("Running"));
    }

    static final String PYTORCH = "pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime";

    static Pod withImages(Pod pod, String... images) {
        var containers = new java.util.ArrayList<io.fabric8.kubernetes.api.model.Container>();
        for (int i = 0; i < images.length; i++) {
            var c = new io.fabric8.kubernetes.api.model.ContainerBuilder(
                            pod.getSpec().getContainers().get(0))
                    .withName("c" + i)
                    .withImage(images[i])
                    .build();
            if (i > 0) {
                c.setResources(null);
            }
            containers.add(c);
        }
        pod.getSpec().setContainers(containers);
        return pod;
    }

    static java.time.Instant bound(Pod p) {
        return java.time.Instant.parse(
                Scheduler.scheduledCondition(p).orElseThrow().getLastTransitionTime());
    }

    static List<String> events(KubernetesClient api, String pod, String reason) {
        return api.v1().events().inNamespace("default").list().getItems().stream()
                .filter(e -> pod.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason()))
                .map(io.fabric8.kubernetes.api.model.Event::getMessage)
                .toList();
    }

    @Test
    void aPodWaitsInContainerCreatingWhileItsNodePullsItsImagesOnceAndOneAfterTheOther() {
        // EKS's default 20 GiB would not hold PyTorch's image and two more (KubeletDisk).
        KubernetesClient api =
                cluster("pulls", cpuNodes(1).toBuilder().diskSize(40).build());
        api.pods()
                .inNamespace("default")
                .resource(withImages(pod("first", Map.of("cpu", "1"), false), PYTORCH))
                .create();
        run(30);

        Pod first = get(api, "first");
        assertThat(first.getSpec().getNodeName()).isNotNull();
        assertThat(first.getStatus().getPhase()).isEqualTo("Pending");
        assertThat(first.getStatus().getContainerStatuses()).singleElement().satisfies(c -> assertThat(
                        c.getState().getWaiting().getReason())
                .isEqualTo("ContainerCreating"));
        assertThat(events(api, "first", "Pulling")).containsExactly("Pulling image \"" + PYTORCH + "\"");
        assertThat(events(api, "first", "Pulled")).isEmpty();

        Duration pull = ImagePulls.pull(ImagePulls.gigabytes(PYTORCH));
        assertThat(pull).isEqualTo(Duration.ofMillis(57_800));
        run(40);
        first = get(api, "first");
        assertThat(first.getStatus().getPhase()).isEqualTo("Running");
        assertThat(java.time.Instant.parse(first.getStatus().getStartTime()))
                .isEqualTo(bound(first).plus(JobController.SCHEDULING).plus(pull));
        assertThat(events(api, "first", "Pulled"))
                .containsExactly("Successfully pulled image \"" + PYTORCH
                        + "\" in 57.8s (57.8s including waiting). Image size: 3400000000 bytes.");

        // The node has the image now: a second pod starts at once; a pod with two images not
        // there pulls them one after the other.
        api.pods()
                .inNamespace("default")
                .resource(withImages(pod("second", Map.of("cpu", "1"), false), PYTORCH))
                .create();
        api.pods()
                .inNamespace("default")
                .resource(withImages(pod("two", Map.of("cpu", "1"), false), "example.com/a:1", "example.com/b:1"))
                .create();
        run(30);
        Pod second = get(api, "second");
        assertThat(second.getStatus().getPhase()).isEqualTo("Running");
        assertThat(java.time.Instant.parse(second.getStatus().getStartTime()))
                .isEqualTo(bound(second).plus(JobController.SCHEDULING));
        assertThat(events(api, "second", "Pulled"))
                .containsExactly("Container image \"" + PYTORCH + "\" already present on machine");
        assertThat(events(api, "second", "Pulling")).isEmpty();
        Pod two = get(api, "two");
        assertThat(two.getStatus().getPhase()).isEqualTo("Running");
        Duration unknown = ImagePulls.pull(ImagePulls.DEFAULT_GB);
        assertThat(java.time.Instant.parse(two.getStatus().getStartTime()))
                .isEqualTo(
                        bound(two).plus(JobController.SCHEDULING).plus(unknown).plus(unknown));
        assertThat(events(api, "two", "Pulling"))
                .containsExactlyInAnyOrder("Pulling image \"example.com/a:1\"", "Pulling image \"example.com/b:1\"");
    }

    static String[] unknownImages(String prefix, int count) {
        return java.util.stream.IntStream.range(0, count)
                .mapToObj(i -> "example.com/" + prefix + i + ":1")
                .toArray(String[]::new);
    }

    /**
     * A node's root volume holds the system and the images ({@link io.trainplane.spec.NodeDisk}'s
     * sizes: 6 GiB, 1.6 for an unknown image, 10.9 for PyTorch's): a pull that cannot fit while the
     * node's pods use what is there fails out of space; the collector deletes unused images, least
     * recently pulled first; a pull that leaves less than 10 % free makes DiskPressure, and the
     * kubelet evicts the pod.
     */
    @Test
    void aNodesRootVolumeHoldsWhatFitsTheKubeletCollectsUnusedImagesAndEvictsUnderDiskPressure() {
        KubernetesClient api =
                cluster("disk", cpuNodes(1).toBuilder().diskSize(30).build());
        Node node = api.nodes().list().getItems().get(0);
        assertThat(node.getStatus().getCapacity()).containsEntry("ephemeral-storage", new Quantity("30Gi"));
        assertThat(node.getStatus().getAllocatable()).containsEntry("ephemeral-storage", new Quantity("27648Mi"));

        // Ten unknown images: 22 GiB of 30.
        api.pods()
                .inNamespace("default")
                .resource(withImages(pod("a", Map.of("cpu", "1"), false), unknownImages("i", 10)))
                .create();
        run(100);
        assertThat(get(api, "a").getStatus().getPhase()).isEqualTo("Running");

        // PyTorch's image does not fit beside them while "a" uses them.
        api.pods()
                .inNamespace("default")
                .resource(withImages(pod("b", Map.of("cpu", "1"), false), PYTORCH))
                .create();
        run(30);
        Pod b = get(api, "b");
        assertThat(b.getStatus().getPhase()).isEqualTo("Pending");
        assertThat(b.getStatus().getContainerStatuses()).singleElement().satisfies(c -> {
            assertThat(c.getState().getWaiting().getReason()).isEqualTo("ImagePullBackOff");
            assertThat(c.getState().getWaiting().getMessage()).endsWith("no space left on device");
        });

        // Once "a" is gone its images are unused: the collector makes room, oldest first.
        api.pods().inNamespace("default").withName("a").delete();
        api.pods().inNamespace("default").withName("b").delete();
        run(5);
        api.pods()
                .inNamespace("default")
                .resource(withImages(pod("c", Map.of("cpu", "1"), false), PYTORCH))
                .create();
        run(80);
        assertThat(get(api, "c").getStatus().getPhase()).isEqualTo("Running");
        // The first image was collected: a pod needing it pulls it again.
        api.pods()
                .inNamespace("default")
                .resource(withImages(pod("d", Map.of("cpu", "1"), false), "example.com/i0:1"))
                .create();
        run(20);
        assertThat(get(api, "d").getStatus().getPhase()).isEqualTo("Running");
        assertThat(events(api, "d", "Pulling")).containsExactly("Pulling image \"example.com/i0:1\"");

        // Six more images than the disk holds once every unused one is collected: DiskPressure.
        api.pods()
                .inNamespace("default")
                .resource(withImages(pod("e", Map.of("cpu", "1"), false), unknownImages("x", 6)))
                .create();
        run(70);
        Pod e = get(api, "e");
        assertThat(e.getStatus().getPhase()).isEqualTo("Failed");
        assertThat(e.getStatus().getReason()).isEqualTo("Evicted");
        assertThat(e.getStatus().getMessage())
                .startsWith(
                        "The node was low on resource: ephemeral-storage. Threshold quantity: 3145728Ki, available: ");
        assertThat(e.getStatus().getConditions()).anySatisfy(c -> assertThat(c.getType() + " " + c.getReason())
                .isEqualTo("DisruptionTarget TerminationByKubelet"));
        assertThat(events(api, "e", "Evicted")).containsExactly(e.getStatus().getMessage());
        node = api.nodes().list().getItems().get(0);
        assertThat(node.getStatus().getConditions())
                .anySatisfy(c -> assertThat(c.getType() + " " + c.getStatus()).isEqualTo("DiskPressure True"));
        assertThat(node.getSpec().getTaints()).anySatisfy(t -> assertThat(t.getKey() + ":" + t.getEffect())
                .isEqualTo("node.kubernetes.io/disk-pressure:NoSchedule"));
        // A node under pressure takes no new pod.
        api.pods()
                .inNamespace("default")
                .resource(pod("f", Map.of("cpu", "1"), false))
                .create();
        run(5);
        assertThat(unschedulable(get(api, "f"))).contains("untolerated taint");
    }

    /**
     * A namespace labelled for Pod Security Admission's baseline refuses a pod that shares the
     * node's network, runs privileged or mounts a host path, with the API server's message; a Job
     * whose template does so gets no pod, and its controller says why (FailedCreate).
     */
    @Test
    void aBaselineNamespaceRefusesPodsThatEscapeTheirSandboxAndTheJobControllerSaysWhy() {
        KubernetesClient api = cluster("psa", cpuNodes(1));
        api.namespaces()
                .resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                        .withNewMetadata()
                        .withName("secure")
                        .withLabels(Map.of("pod-security.kubernetes.io/enforce", "baseline"))
                        .endMetadata()
                        .build())
                .create();
        Pod escaping = pod("escaping", Map.of("cpu", "1"), false);
        escaping.getMetadata().setNamespace("secure");
        escaping.getSpec().setHostNetwork(true);
        escaping.getSpec()
                .getContainers()
                .get(0)
                .setSecurityContext(new io.fabric8.kubernetes.api.model.SecurityContextBuilder()
                        .withPrivileged(true)
                        .withNewCapabilities()
                        .withAdd("SYS_ADMIN")
                        .endCapabilities()
                        .build());
        assertThatThrownBy(() ->
                        api.pods().inNamespace("secure").resource(escaping).create())
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("pods \"escaping\" is forbidden: violates PodSecurity \"baseline:latest\":"
                        + " host namespaces (hostNetwork=true), privileged (container \"main\" must not set"
                        + " securityContext.privileged=true), non-default capabilities (container \"main\" must not"
                        + " include \"SYS_ADMIN\" in securityContext.capabilities.add)");
        // The same pod elsewhere (no label: privileged level) is admitted.
        Pod elsewhere = pod("escaping", Map.of("cpu", "1"), false);
        elsewhere.getSpec().setHostNetwork(true);
        api.pods().inNamespace("default").resource(elsewhere).create();

        var job = new io.fabric8.kubernetes.api.model.batch.v1.JobBuilder()
                .withNewMetadata()
                .withName("reads-the-host")
                .withNamespace("secure")
                .endMetadata()
                .withNewSpec()
                .withNewTemplate()
                .withNewMetadata()
                .endMetadata()
                .withNewSpec()
                .withRestartPolicy("Never")
                .addNewContainer()
                .withName("main")
                .withImage("busybox")
                .endContainer()
                .addNewVolume()
                .withName("root")
                .withNewHostPath()
                .withPath("/")
                .endHostPath()
                .endVolume()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
        api.batch().v1().jobs().inNamespace("secure").resource(job).create();
        run(3);
        assertThat(api.pods().inNamespace("secure").list().getItems()).isEmpty();
        assertThat(api.v1().events().inNamespace("secure").list().getItems()).anySatisfy(e -> {
            assertThat(e.getReason()).isEqualTo("FailedCreate");
            assertThat(e.getInvolvedObject().getName()).isEqualTo("reads-the-host");
            assertThat(e.getMessage())
                    .startsWith("Error creating: pods ")
                    .endsWith("violates PodSecurity \"baseline:latest\": hostPath volumes (volume \"root\")");
        });
    }

    @Test
    void withoutTheDevicePluginANodeHasNoGpusAndWithItTheyAreCountedOut() {
        KubernetesClient api = cluster("gpus", gpuNodes(1));
        api.pods()
                .inNamespace("default")
                .resource(pod("a", Map.of("nvidia.com/gpu", "1"), true))
                .create();
        run(10);
        assertThat(unschedulable(get(api, "a")))
                .isEqualTo("0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are "
                        + "available: 1 Preemption is not helpful for scheduling.");

        api.apps()
                .daemonSets()
                .resource(DevicePluginManifests.daemonSet(new Names("gpus")))
                .create();
        // The plugin's image pulled, then the pod's: a few seconds each.
        run(20);
        Node node = api.nodes().list().getItems().get(0);
        assertThat(node.getStatus().getAllocatable()).containsEntry(ClusterNodes.GPU, new Quantity("1"));
        Pod a = get(api, "a");
        assertThat(a.getSpec().getNodeName()).isEqualTo(node.getMetadata().getName());
        assertThat(a.getStatus().getPhase()).isEqualTo("Running");

        // The node's one GPU is taken: a second pod waits, and one asking for two never fits.
        api.pods()
                .inNamespace("default")
                .resource(pod("b", Map.of("nvidia.com/gpu", "1"), true))
                .create();
        api.pods()
                .inNamespace("default")
                .resource(pod("c", Map.of("nvidia.com/gpu", "2"), true))
                .create();
        run(5);
        assertThat(unschedulable(get(api, "b")))
                .isEqualTo("0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are "
                        + "available: 1 No preemption victims found for incoming pod.");
        assertThat(unschedulable(get(api, "c")))
                .isEqualTo("0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are "
                        + "available: 1 Preemption is not helpful for scheduling.");
    }

    @Test
    void tooMuchCpuOrMemoryAndAMixOfReasonsAreCountedPerNode() {
        KubernetesClient api = cluster("mix", gpuNodes(1), cpuNodes(2));
        api.pods()
                .inNamespace("default")
                .resource(pod("big", Map.of("cpu", "8", "memory", "1Gi"), false))
                .create();
        run(3);
        assertThat(unschedulable(get(api, "big")))
                .isEqualTo("0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. "
                        + "preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.");
    }

    @Test
    void nodeSelectorAndRequiredNodeAffinityPickTheNodes() {
        KubernetesClient api = cluster("select", gpuNodes(1), cpuNodes(2));
        Pod mismatch = pod("mismatch", Map.of("cpu", "100m"), true);
        mismatch.getSpec().setNodeSelector(Map.of("pool", "nowhere"));
        Pod gpuOnly = pod("gpu-only", Map.of("cpu", "100m"), true);
        gpuOnly.getSpec().setNodeSelector(Map.of("pool", "workers"));
        Pod affinity = pod("affinity", Map.of("cpu", "100m"), true);
        affinity.getSpec()
                .setAffinity(new io.fabric8.kubernetes.api.model.AffinityBuilder()
                        .withNewNodeAffinity()
                        .withNewRequiredDuringSchedulingIgnoredDuringExecution()
                        .addNewNodeSelectorTerm()
                        .addNewMatchExpression()
                        .withKey("rank")
                        .withOperator("Gt")
                        .withValues("2")
                        .endMatchExpression()
                        .addNewMatchExpression()
                        .withKey("trainplane/gpu")
                        .withOperator("DoesNotExist")
                        .endMatchExpression()
                        .endNodeSelectorTerm()
                        .endRequiredDuringSchedulingIgnoredDuringExecution()
                        .endNodeAffinity()
                        .build());
        for (Pod p : List.of(mismatch, gpuOnly, affinity)) {
            api.pods().inNamespace("default").resource(p).create();
        }
        run(6);

        assertThat(unschedulable(get(api, "mismatch")))
                .isEqualTo("0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. "
                        + "preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.");
        assertThat(labelsOfNode(api, get(api, "gpu-only"))).containsEntry("pool", "workers");
        assertThat(labelsOfNode(api, get(api, "affinity"))).containsEntry("pool", "system");
    }

    @Test
    void everyOperatorOfANodeSelectorRequirement() {
        Map<String, String> labels = Map.of("a", "1", "b", "x");
        assertThat(requirement("a", "In", "1", "2").matches(labels)).isTrue();
        assertThat(requirement("a", "NotIn", "1").matches(labels)).isFalse();
        assertThat(requirement("c", "NotIn", "1").matches(labels)).isTrue();
        assertThat(requirement("b", "Exists").matches(labels)).isTrue();
        assertThat(requirement("b", "DoesNotExist").matches(labels)).isFalse();
        assertThat(requirement("a", "Gt", "0").matches(labels)).isTrue();
        assertThat(requirement("a", "Lt", "1").matches(labels)).isFalse();
        assertThat(requirement("b", "Gt", "0").matches(labels))
                .as("not an integer")
                .isFalse();
    }

    @Test
    void aDeletedClusterTakesItsApiServerAndObjectsWithIt() {
        KubernetesClient api = cluster("gone", cpuNodes(1));
        String endpoint = clusters.cluster("gone").orElseThrow().kubernetes().endpoint();
        assertThat(eks.describeCluster(r -> r.name("gone")).cluster().endpoint())
                .isEqualTo(endpoint);
        eks.deleteNodegroup(r -> r.clusterName("gone").nodegroupName("system"));
        clock.advance(SimulatedEks.NODEGROUP_DELETING);
        eks.deleteCluster(r -> r.name("gone"));
        clock.advance(SimulatedEks.CLUSTER_DELETING);
        eks.listClusters(r -> {});
        assertThat(clusters.cluster("gone")).isEmpty();
        assertThat(clusters.labeledObjects()).isEmpty();
        assertThatThrownBy(() -> api.namespaces().list()).isInstanceOf(RuntimeException.class);
    }

    private static Map<String, String> labelsOfNode(KubernetesClient api, Pod pod) {
        assertThat(pod.getSpec().getNodeName())
                .as(pod.getMetadata().getName() + " bound")
                .isNotNull();
        return api.nodes()
                .withName(pod.getSpec().getNodeName())
                .get()
                .getMetadata()
                .getLabels();
    }

    private record Requirement(io.fabric8.kubernetes.api.model.NodeSelectorRequirement r) {
        boolean matches(Map<String, String> labels) {
            return Scheduler.matches(r, labels);
        }
    }

    private static Requirement requirement(String key, String operator, String... values) {
        return new Requirement(new NodeSelectorRequirementBuilder()
                .withKey(key)
                .withOperator(operator)
                .withValues(values)
                .build());
    }
}
