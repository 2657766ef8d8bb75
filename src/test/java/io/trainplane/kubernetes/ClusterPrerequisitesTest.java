package io.trainplane.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.storage.CSIDriverBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.trainplane.kubernetes.ClusterPrerequisites.Missing;
import io.trainplane.kubernetes.ClusterPrerequisites.Needs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One rule each: what a spec uses, what the cluster must have for it, and what the refusal says to install. */
class ClusterPrerequisitesTest {
    static final Needs NOTHING = new Needs(false, false, 0, false);

    final CrudApiServer server = new CrudApiServer();
    final KubernetesClient api = server.client;

    @AfterEach
    void close() {
        server.close();
    }

    List<Missing> missing(Needs needs) {
        return new ClusterPrerequisites(api).missing(needs);
    }

    void node(String name, Map<String, String> allocatable) {
        var node = new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewStatus()
                .addToAllocatable("cpu", new Quantity("8"))
                .addToAllocatable("memory", new Quantity("30Gi"))
                .endStatus()
                .build();
        allocatable.forEach((k, v) -> node.getStatus().getAllocatable().put(k, new Quantity(v)));
        api.nodes().resource(node).create();
    }

    @Test
    void aSpecThatUsesNothingSpecialNeedsNothing() {
        assertThat(missing(NOTHING)).isEmpty();
    }

    @Test
    void aPyTorchJobNeedsTheTrainingOperatorsCrd() {
        Needs pyTorchJob = new Needs(true, false, 0, false);

        assertThat(missing(pyTorchJob)).singleElement().satisfies(m -> {
            assertThat(m.what()).contains("the CRD pytorchjobs.kubeflow.org");
            assertThat(m.install())
                    .contains("v1.9.4")
                    .contains("kubectl apply --server-side -k")
                    .contains("manifests/overlays/standalone?ref=v1.9.4");
        });

        GenericCrd.create(api);
        assertThat(missing(pyTorchJob)).isEmpty();
    }

    @Test
    void anFsxVolumeNeedsTheFsxCsiDriverAndNotTheEfsOne() {
        Needs fsx = new Needs(false, false, 0, false, false, true);

        assertThat(missing(fsx)).singleElement().satisfies(m -> {
            assertThat(m.what()).contains("the CSIDriver fsx.csi.aws.com", "volume.type is fsx-lustre");
            assertThat(m.install()).contains("--addon-name aws-fsx-csi-driver", "fsx-csi-controller-sa");
        });

        api.storage()
                .v1()
                .csiDrivers()
                .resource(new CSIDriverBuilder()
                        .withNewMetadata()
                        .withName("fsx.csi.aws.com")
                        .endMetadata()
                        .withNewSpec()
                        .withAttachRequired(false)
                        .endSpec()
                        .build())
                .create();
        assertThat(missing(fsx)).isEmpty();
    }

    @Test
    void anEfsVolumeNeedsTheEfsCsiDriver() {
        Needs efs = new Needs(false, true, 0, false);

        assertThat(missing(efs)).singleElement().satisfies(m -> {
            assertThat(m.what()).contains("the CSIDriver efs.csi.aws.com");
            assertThat(m.install()).contains("EKS add-on aws-efs-csi-driver").contains("aws eks create-addon");
        });

        api.storage()
                .v1()
                .csiDrivers()
                .resource(new CSIDriverBuilder()
                        .withNewMetadata()
                        .withName("efs.csi.aws.com")
                        .endMetadata()
                        .withNewSpec()
                        .withAttachRequired(false)
                        .endSpec()
                        .build())
                .create();
        assertThat(missing(efs)).isEmpty();
    }

    @Test
    void gpusNeedANodeThatAdvertisesThem() {
        Needs gpus = new Needs(false, false, 1, false);
        node("cpu-node", Map.of());
        // A GPU node whose device plugin is not running advertises none, or zero.
        node("gpu-node-without-plugin", Map.of("nvidia.com/gpu", "0"));

        assertThat(missing(gpus)).singleElement().satisfies(m -> {
            assertThat(m.what()).contains("allocatable nvidia.com/gpu").contains("of 2 nodes none");
            assertThat(m.install()).contains("NVIDIA device plugin").contains("nvidia-device-plugin.yml");
        });

        node("gpu-node", Map.of("nvidia.com/gpu", "4"));
        assertThat(missing(gpus)).isEmpty();
    }

    @Test
    void efaNeedsANodeThatAdvertisesIt() {
        Needs efa = new Needs(false, false, 0, true);
        node("gpu-node", Map.of("nvidia.com/gpu", "8"));

        assertThat(missing(efa)).singleElement().satisfies(m -> {
            assertThat(m.what()).contains("allocatable vpc.amazonaws.com/efa");
            assertThat(m.install()).contains("EFA device plugin").contains("aws-efa-k8s-device-plugin");
        });

        node("efa-node", Map.of("nvidia.com/gpu", "8", "vpc.amazonaws.com/efa", "32"));
        assertThat(missing(efa)).isEmpty();
    }

    @Test
    void everythingMissingIsNamedAtOnce() {
        assertThat(missing(new Needs(true, true, 2, true)))
                .extracting(Missing::what)
                .hasSize(4)
                .anyMatch(w -> w.contains("pytorchjobs.kubeflow.org"))
                .anyMatch(w -> w.contains("efs.csi.aws.com"))
                .anyMatch(w -> w.contains("nvidia.com/gpu"))
                .anyMatch(w -> w.contains("vpc.amazonaws.com/efa"));
    }

    /** The training operator's PyTorchJob CRD, as the release installs it. */
    static final class GenericCrd {
        static void create(KubernetesClient api) {
            var crd = TrainingOperator.objects().stream()
                    .filter(o -> o.getMetadata().getName().equals(PyTorchJobs.CRD_NAME))
                    .findFirst()
                    .orElseThrow();
            api.genericKubernetesResources(TrainingOperator.KINDS.get("CustomResourceDefinition"))
                    .resource(crd)
                    .create();
        }
    }
}
