package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.ResourceState;
import io.trainplane.aws.RunTags;
import io.trainplane.aws.Settings;
import io.trainplane.aws.eks.EksAddons;
import io.trainplane.aws.eks.PodIdentity;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.kubernetes.DevicePluginManifests;
import io.trainplane.kubernetes.RunObjects;
import io.trainplane.kubernetes.TrainingOperator;
import io.trainplane.spec.Launcher;
import io.trainplane.spec.VolumeType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Readies a created cluster for the run: the EKS Pod Identity agent and, when the run has an EFS
 * volume, the EFS CSI driver with a Pod Identity association to the stack's role; the NVIDIA
 * device plugin when the nodes have GPUs, the EFA device plugin when they have EFA interfaces; the
 * Kubeflow training operator for a PyTorchJob, the MPI operator for an MPIJob. Installs what is
 * missing, then reports whether all of it is ready; the state machine calls it again until it is.
 *
 * <p>Each poll is kept cheap: its answer says what needs no second look (the device plugins sent,
 * the operator's CRD Established), and the state machine hands it back to the next poll
 * ({@link #RESULT}). A poll without it (the first, a re-run) does the whole work, which is safe to
 * repeat.
 */
public final class ConfigureClusterStep implements KubernetesStep {
    static final int WAIT_SECONDS = 20;
    /** Where the state machine puts this step's answer (Pipeline), and so where the next poll finds it. */
    static final String RESULT = "configuration";
    /** In the answer: the device plugins the nodes need were created (or adopted), so later polls send nothing. */
    static final String DEVICE_PLUGINS_APPLIED = "devicePluginsApplied";
    /** In the answer: the operator's job CRD was Established, so later polls read only the operator's Deployment. */
    static final String OPERATOR_CRD_ESTABLISHED = "operatorCrdEstablished";

    private final Supplier<EksAddons> eksAddons;
    private final ClusterAccess clusters;
    private final Settings settings;

    /** {@code settings}: the stack's name for the add-ons' tags, its EFS CSI role for the driver's Pod Identity. */
    public ConfigureClusterStep(Supplier<EksAddons> eksAddons, ClusterAccess clusters, Settings settings) {
        this.eksAddons = eksAddons;
        this.clusters = clusters;
        this.settings = settings;
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        JsonNode earlier = input.path(RESULT);
        String cluster = run.names().clusterName();
        ResourceState combined = new ResourceState.Ready();
        for (var addon : addons(run).entrySet()) {
            ResourceState state = eksAddons.get().state(cluster, addon.getKey());
            if (state instanceof ResourceState.Gone) {
                eksAddons.get().ensure(cluster, addon.getKey(), addon.getValue(), RunTags.of(settings, run.names()));
                state = new ResourceState.Creating("installing " + addon.getKey());
            }
            combined = stillWaiting(combined, state);
        }
        if (!earlier.path(DEVICE_PLUGINS_APPLIED).asBoolean(false)) {
            devicePlugins(run, cluster);
        }
        boolean crdEstablished = earlier.path(OPERATOR_CRD_ESTABLISHED).asBoolean(false);
        Launcher launcher = run.spec().training().launcher();
        if (launcher != Launcher.INDEXED_JOB) {
            TrainingOperator.Status operator = trainingOperator(
                    cluster,
                    launcher == Launcher.MPIJOB ? TrainingOperator.MPI : TrainingOperator.TRAINING,
                    crdEstablished);
            crdEstablished = operator.crdEstablished();
            combined = stillWaiting(combined, operator.state());
        }
        return ResourceWait.look(combined, "the add-ons of EKS cluster " + cluster, WAIT_SECONDS)
                .put(DEVICE_PLUGINS_APPLIED, true)
                .put(OPERATOR_CRD_ESTABLISHED, crdEstablished);
    }

    /** The NVIDIA device plugin on GPU nodes, the EFA one on EFA nodes: created, or adopted when there. */
    private void devicePlugins(RunContext run, String cluster) {
        boolean gpus = run.spec().cluster().nodeGroup().gpusPerNode() > 0;
        // Without it the EFA interfaces are attached but no pod can ask for one: NCCL falls back to TCP.
        boolean efa = run.spec().cluster().nodeGroup().efa();
        if (!gpus && !efa) {
            return;
        }
        RunObjects objects = new RunObjects(clusters.connect(cluster), run.runId());
        if (gpus) {
            objects.createOrAdopt(DevicePluginManifests.daemonSet(run.names()));
        }
        if (efa) {
            objects.createOrAdopt(DevicePluginManifests.efaDaemonSet(run.names()));
        }
    }

    /**
     * The Kubeflow training operator or MPI operator ({@code release}), from the manifest in the jar. It belongs to the cluster: it
     * goes when the cluster is deleted, with nothing of its own to tear down; a cluster kept by
     * {@code cleanup.keepCluster} keeps it too, so a later run there ({@code mode: existing}) finds it.
     */
    private TrainingOperator.Status trainingOperator(
            String cluster, TrainingOperator.Release release, boolean crdEstablished) {
        return new TrainingOperator(clusters.connect(cluster), release).ensure(crdEstablished);
    }

    /** The first of the parts that is not ready says why the step waits. */
    private static ResourceState stillWaiting(ResourceState combined, ResourceState next) {
        return combined instanceof ResourceState.Ready ? next : combined;
    }

    private Map<String, Optional<PodIdentity>> addons(RunContext run) {
        Map<String, Optional<PodIdentity>> addons = new LinkedHashMap<>();
        addons.put(EksAddons.POD_IDENTITY_AGENT, Optional.empty());
        if (run.spec().volume().type() == VolumeType.EFS) {
            addons.put(
                    EksAddons.EFS_CSI_DRIVER,
                    Optional.of(PodIdentity.efsCsiController(settings.roles().efsCsiRoleArn())));
        }
        if (run.spec().volume().type() == VolumeType.FSX_LUSTRE) {
            addons.put(
                    EksAddons.FSX_CSI_DRIVER,
                    Optional.of(PodIdentity.fsxCsiController(settings.roles().fsxCsiRoleArn())));
        }
        return addons;
    }
}
