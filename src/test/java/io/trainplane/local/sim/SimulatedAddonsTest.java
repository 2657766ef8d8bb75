package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.trainplane.core.FailureReason;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.eks.model.Addon;
import software.amazon.awssdk.services.eks.model.AddonIssueCode;
import software.amazon.awssdk.services.eks.model.AddonStatus;

/**
 * An add-on is its workloads on the cluster: ACTIVE only once its pods run, DEGRADED with EKS's
 * health issue when they cannot schedule, and gone from the cluster with DeleteAddon.
 */
class SimulatedAddonsTest {
    final SimulatedClusterRulesTest rules = new SimulatedClusterRulesTest();

    @AfterEach
    void close() {
        rules.close();
    }

    Addon describe(String cluster, String addon) {
        return rules.eks
                .describeAddon(r -> r.clusterName(cluster).addonName(addon))
                .addon();
    }

    /** Lets the controllers catch up: a few reconciliations, seconds apart. */
    void settle() {
        rules.run(12);
    }

    @Test
    void theEfsCsiControllerCannotRunOnTaintedGpuNodesSoTheAddonGoesDegraded() {
        KubernetesClient api = rules.cluster("gpu-only", SimulatedClusterRulesTest.gpuNodes(2));
        rules.eks.createAddon(r -> r.clusterName("gpu-only").addonName(AddonWorkloads.EFS_CSI_DRIVER));
        assertThat(api.storage()
                        .v1()
                        .csiDrivers()
                        .withName(AddonWorkloads.EFS_DRIVER_NAME)
                        .get())
                .isNotNull();
        rules.clock.advance(SimulatedEks.ADDON_CREATING);
        settle();
        // The node DaemonSet tolerates every taint and runs; the controller does not tolerate the GPU taint.
        assertThat(api.apps()
                        .daemonSets()
                        .inNamespace("kube-system")
                        .withName(AddonWorkloads.EFS_NODE)
                        .get()
                        .getStatus()
                        .getNumberAvailable())
                .isEqualTo(2);
        assertThat(api.pods()
                        .inNamespace("kube-system")
                        .withLabel("app", AddonWorkloads.EFS_CONTROLLER)
                        .list()
                        .getItems())
                .hasSize(2)
                .allSatisfy(p -> assertThat(p.getStatus().getPhase()).isEqualTo("Pending"));
        assertThat(describe("gpu-only", AddonWorkloads.EFS_CSI_DRIVER).status()).isEqualTo(AddonStatus.CREATING);

        rules.clock.advance(SimulatedEks.ADDON_DEGRADED_AFTER);
        settle();
        Addon degraded = describe("gpu-only", AddonWorkloads.EFS_CSI_DRIVER);
        assertThat(degraded.status()).isEqualTo(AddonStatus.DEGRADED);
        assertThat(degraded.health().issues()).singleElement().satisfies(i -> {
            assertThat(i.code()).isEqualTo(AddonIssueCode.INSUFFICIENT_NUMBER_OF_REPLICAS);
            assertThat(i.message())
                    .isEqualTo("The add-on is unhealthy because it doesn't have the desired number of replicas.");
        });

        rules.eks.deleteAddon(r -> r.clusterName("gpu-only").addonName(AddonWorkloads.EFS_CSI_DRIVER));
        settle();
        assertThat(api.storage().v1().csiDrivers().list().getItems()).isEmpty();
        assertThat(api.apps()
                        .deployments()
                        .inNamespace("kube-system")
                        .withName(AddonWorkloads.EFS_CONTROLLER)
                        .get())
                .isNull();
        assertThat(api.pods().inNamespace("kube-system").list().getItems())
                .noneMatch(p -> p.getMetadata().getName().startsWith("efs-csi"));
    }

    @Test
    void onASystemNodeTheAddonsAreActiveOnceTheirPodsRunAndNotBeforeTheMinimumTime() {
        KubernetesClient api = rules.cluster(
                "with-system", SimulatedClusterRulesTest.cpuNodes(1), SimulatedClusterRulesTest.gpuNodes(1));
        rules.eks.createAddon(r -> r.clusterName("with-system").addonName(AddonWorkloads.EFS_CSI_DRIVER));
        rules.eks.createAddon(r -> r.clusterName("with-system").addonName(AddonWorkloads.POD_IDENTITY_AGENT));
        settle();
        assertThat(describe("with-system", AddonWorkloads.EFS_CSI_DRIVER).status())
                .isEqualTo(AddonStatus.CREATING);
        rules.clock.advance(SimulatedEks.ADDON_CREATING);
        settle();
        assertThat(describe("with-system", AddonWorkloads.EFS_CSI_DRIVER).status())
                .isEqualTo(AddonStatus.ACTIVE);
        assertThat(describe("with-system", AddonWorkloads.POD_IDENTITY_AGENT).status())
                .isEqualTo(AddonStatus.ACTIVE);
        assertThat(api.pods()
                        .inNamespace("kube-system")
                        .withLabel("k8s-app", AddonWorkloads.POD_IDENTITY_AGENT)
                        .list()
                        .getItems())
                .hasSize(2);

        // Once ACTIVE, pods that stop running make it DEGRADED at once.
        rules.eks.deleteNodegroup(r -> r.clusterName("with-system").nodegroupName("system"));
        rules.clock.advance(SimulatedEks.NODEGROUP_DELETING);
        rules.run(30);
        assertThat(describe("with-system", AddonWorkloads.EFS_CSI_DRIVER).status())
                .isEqualTo(AddonStatus.DEGRADED);
    }

    @Test
    void aDaemonSetAddonOnAClusterWithoutNodesIsActiveAndManagedCoreDnsAdoptsTheSelfManagedOne() {
        KubernetesClient api = rules.cluster("empty");
        rules.eks.createAddon(r -> r.clusterName("empty").addonName(AddonWorkloads.POD_IDENTITY_AGENT));
        rules.eks.createAddon(r -> r.clusterName("empty").addonName(BareCluster.COREDNS));
        rules.clock.advance(SimulatedEks.ADDON_CREATING.plus(Duration.ofSeconds(1)));
        settle();
        assertThat(describe("empty", AddonWorkloads.POD_IDENTITY_AGENT).status())
                .isEqualTo(AddonStatus.ACTIVE);
        // CoreDNS has no node to run on.
        assertThat(describe("empty", BareCluster.COREDNS).status()).isEqualTo(AddonStatus.CREATING);
        assertThat(api.apps().deployments().inNamespace("kube-system").list().getItems())
                .extracting(d -> d.getMetadata().getName())
                .containsExactly(BareCluster.COREDNS);
    }

    /** A PersistentVolume of the EFS CSI driver, its claim, and a Job whose pod mounts it. */
    static void jobMountingEfs(KubernetesClient api) {
        api.persistentVolumes()
                .resource(new io.fabric8.kubernetes.api.model.PersistentVolumeBuilder()
                        .withNewMetadata()
                        .withName("tp-run-shared")
                        .endMetadata()
                        .withNewSpec()
                        .withCapacity(java.util.Map.of("storage", new io.fabric8.kubernetes.api.model.Quantity("5Gi")))
                        .withAccessModes("ReadWriteMany")
                        .withNewCsi()
                        .withDriver(AddonWorkloads.EFS_DRIVER_NAME)
                        .withVolumeHandle("fs-0123456789abcdef0")
                        .endCsi()
                        .endSpec()
                        .build())
                .create();
        api.persistentVolumeClaims()
                .inNamespace("default")
                .resource(new io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder()
                        .withNewMetadata()
                        .withName("shared")
                        .endMetadata()
                        .withNewSpec()
                        .withAccessModes("ReadWriteMany")
                        .withVolumeName("tp-run-shared")
                        .withStorageClassName("")
                        .withNewResources()
                        .withRequests(java.util.Map.of("storage", new io.fabric8.kubernetes.api.model.Quantity("5Gi")))
                        .endResources()
                        .endSpec()
                        .build())
                .create();
        api.batch()
                .v1()
                .jobs()
                .inNamespace("default")
                .resource(new io.fabric8.kubernetes.api.model.batch.v1.JobBuilder()
                        .withNewMetadata()
                        .withName("data")
                        .endMetadata()
                        .withNewSpec()
                        .withNewTemplate()
                        .withNewMetadata()
                        .withLabels(java.util.Map.of("app", "data"))
                        .endMetadata()
                        .withNewSpec()
                        .withRestartPolicy("Never")
                        .addNewContainer()
                        .withName("data")
                        .withImage("busybox")
                        .addNewVolumeMount()
                        .withName("shared")
                        .withMountPath("/shared")
                        .endVolumeMount()
                        .endContainer()
                        .addNewVolume()
                        .withName("shared")
                        .withNewPersistentVolumeClaim()
                        .withClaimName("shared")
                        .endPersistentVolumeClaim()
                        .endVolume()
                        .endSpec()
                        .endTemplate()
                        .endSpec()
                        .build())
                .create();
    }

    static final String NO_EFS_DRIVER = "MountVolume.MountDevice failed for volume \"tp-run-shared\" :"
            + " kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver name"
            + " efs.csi.aws.com not found in the list of registered CSI drivers";

    @Test
    void anEfsVolumeDoesNotMountWhereNoEfsCsiNodePodRunsAndThePodIsDiagnosedFailedMount() {
        KubernetesClient api = rules.cluster("no-driver", SimulatedClusterRulesTest.cpuNodes(1));
        jobMountingEfs(api);
        settle();
        var pod = api.pods()
                .inNamespace("default")
                .withLabel("app", "data")
                .list()
                .getItems()
                .getFirst();
        assertThat(pod.getSpec().getNodeName()).as("scheduled").isNotNull();
        assertThat(pod.getStatus().getPhase()).isEqualTo("Pending");
        assertThat(pod.getStatus().getContainerStatuses()).singleElement().satisfies(c -> assertThat(
                        c.getState().getWaiting().getReason())
                .isEqualTo("ContainerCreating"));
        var events = api.v1().events().inNamespace("default").list().getItems();
        assertThat(events)
                .filteredOn(e -> "FailedMount".equals(e.getReason()))
                .singleElement()
                .satisfies(e -> assertThat(e.getMessage()).isEqualTo(NO_EFS_DRIVER));

        rules.clock.advance(Duration.ofMinutes(16));
        var diagnosis = io.trainplane.kubernetes.PodDiagnosis.of(
                        List.of(api.pods()
                                .inNamespace("default")
                                .withLabel("app", "data")
                                .list()
                                .getItems()
                                .getFirst()),
                        events,
                        rules.clock.instant(),
                        Duration.ofMinutes(15),
                        false)
                .orElseThrow();
        assertThat(diagnosis.reason()).isEqualTo(FailureReason.FailedMount);
        assertThat(diagnosis.message()).contains("install the EKS add-on aws-efs-csi-driver");

        // With the driver's node plugin running on the node, the volume mounts and the pod starts.
        rules.eks.createAddon(r -> r.clusterName("no-driver").addonName(AddonWorkloads.EFS_CSI_DRIVER));
        settle();
        assertThat(api.pods()
                        .inNamespace("default")
                        .withLabel("app", "data")
                        .list()
                        .getItems()
                        .getFirst()
                        .getStatus()
                        .getPhase())
                .isNotEqualTo("Pending");
    }

    /** A training Job as the run makes it: torchrun with its c10d rendezvous at pod 0's Service DNS name. */
    static void trainingJob(KubernetesClient api) {
        api.batch()
                .v1()
                .jobs()
                .inNamespace("default")
                .resource(new io.fabric8.kubernetes.api.model.batch.v1.JobBuilder()
                        .withNewMetadata()
                        .withName("run-training")
                        .endMetadata()
                        .withNewSpec()
                        .withNewTemplate()
                        .withNewMetadata()
                        .withLabels(java.util.Map.of("app", "training"))
                        .endMetadata()
                        .withNewSpec()
                        .withRestartPolicy("Never")
                        .addNewToleration()
                        .withKey("nvidia.com/gpu")
                        .withOperator("Exists")
                        .withEffect("NoSchedule")
                        .endToleration()
                        .addNewContainer()
                        .withName("trainer")
                        .withImage("pytorch/pytorch")
                        .withCommand(
                                "torchrun",
                                "--rdzv-backend=c10d",
                                "--rdzv-endpoint=run-training-0.run-training:29400",
                                "train.py")
                        .endContainer()
                        .endSpec()
                        .endTemplate()
                        .endSpec()
                        .build())
                .create();
    }

    @Test
    void withoutCoreDnsTheRendezvousNameDoesNotResolveAndTheTrainingFailsDiagnosed() {
        // GPU nodes only: CoreDNS does not tolerate their taint, the training pod does.
        KubernetesClient api = rules.cluster("no-dns", SimulatedClusterRulesTest.gpuNodes(1));
        trainingJob(api);
        rules.run(10
                + (int) ImagePulls.pull(ImagePulls.DEFAULT_GB).toSeconds()
                + (int) ClusterDns.RENDEZVOUS_TIMEOUT.toSeconds());
        var pod = api.pods()
                .inNamespace("default")
                .withLabel("app", "training")
                .list()
                .getItems()
                .getFirst();
        assertThat(pod.getStatus().getPhase()).isEqualTo("Failed");
        var terminated =
                pod.getStatus().getContainerStatuses().getFirst().getState().getTerminated();
        assertThat(terminated.getExitCode()).isEqualTo(1);
        assertThat(terminated.getMessage())
                .contains("[c10d] The IPv4 network addresses of (run-training-0.run-training, 29400) cannot be"
                        + " retrieved (gai error: -2 - Name or service not known).");
        var diagnosis = io.trainplane.kubernetes.PodDiagnosis.of(
                        List.of(pod), List.of(), rules.clock.instant(), Duration.ofMinutes(15), true)
                .orElseThrow();
        assertThat(diagnosis.reason()).isEqualTo(FailureReason.RendezvousUnresolved);
        assertThat(diagnosis.message()).contains("CoreDNS is not running");
        // The kubelet serves the same lines as the pod's log.
        assertThat(api.pods()
                        .inNamespace("default")
                        .withName(pod.getMetadata().getName())
                        .getLog())
                .contains("Name or service not known");
    }

    @Test
    void withCoreDnsOnASystemNodeTheSameTrainingRuns() {
        KubernetesClient api =
                rules.cluster("with-dns", SimulatedClusterRulesTest.cpuNodes(1), SimulatedClusterRulesTest.gpuNodes(1));
        settle();
        trainingJob(api);
        rules.run(10
                + (int) ImagePulls.pull(ImagePulls.DEFAULT_GB).toSeconds()
                + (int) ClusterDns.RENDEZVOUS_TIMEOUT.toSeconds());
        var pod = api.pods()
                .inNamespace("default")
                .withLabel("app", "training")
                .list()
                .getItems()
                .getFirst();
        assertThat(pod.getStatus().getPhase()).isIn("Running", "Succeeded");
    }

    @Test
    void anEfsVolumeWithoutAMountTargetInTheNodesZoneTimesOutMountingDiagnosed() {
        // The file system exists, with no mount target yet.
        rules.clusters.mountingFrom(fs -> fs.equals("fs-0123456789abcdef0") ? Optional.of(Set.of()) : Optional.empty());
        KubernetesClient api = rules.cluster("no-target", SimulatedClusterRulesTest.cpuNodes(1));
        rules.eks.createAddon(r -> r.clusterName("no-target").addonName(AddonWorkloads.EFS_CSI_DRIVER));
        settle();
        jobMountingEfs(api);
        settle();
        var pod = api.pods()
                .inNamespace("default")
                .withLabel("app", "data")
                .list()
                .getItems()
                .getFirst();
        assertThat(pod.getStatus().getPhase()).isEqualTo("Pending");
        var events = api.v1().events().inNamespace("default").list().getItems();
        assertThat(events)
                .filteredOn(e -> "FailedMount".equals(e.getReason()))
                .singleElement()
                .satisfies(e -> assertThat(e.getMessage())
                        .isEqualTo("MountVolume.SetUp failed for volume \"tp-run-shared\" : rpc error: code ="
                                + " DeadlineExceeded desc = context deadline exceeded"));
        rules.clock.advance(Duration.ofMinutes(16));
        var diagnosis = io.trainplane.kubernetes.PodDiagnosis.of(
                        List.of(pod), events, rules.clock.instant(), Duration.ofMinutes(15), false)
                .orElseThrow();
        assertThat(diagnosis.reason()).isEqualTo(FailureReason.FailedMount);
        assertThat(diagnosis.message()).contains("mount target in the node's Availability Zone");
    }
}
