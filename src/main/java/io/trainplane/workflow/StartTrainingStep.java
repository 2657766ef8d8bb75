package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.FailureReason;
import io.trainplane.core.Json;
import io.trainplane.core.TerminalException;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.kubernetes.MpiJobs;
import io.trainplane.kubernetes.PyTorchJobs;
import io.trainplane.kubernetes.RunObjects;
import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.runs.RunPhase;
import io.trainplane.runs.RunStatus;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.Launcher;

/**
 * Creates (or adopts) the workload scripts and the training: an Indexed Job with its rendezvous
 * Service, a PyTorchJob when the Kubeflow training operator is on the cluster, or an MPIJob when the
 * MPI operator is.
 */
public final class StartTrainingStep implements KubernetesStep {
    private final RunStore store;
    private final ClusterAccess clusters;

    public StartTrainingStep(RunStore store, ClusterAccess clusters) {
        this.store = store;
        this.clusters = clusters;
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        RunObjects objects = new RunObjects(clusters.connect(run.clusterName()), run.runId());
        Launcher launcher = run.spec().training().launcher();
        boolean pyTorchJob = launcher == Launcher.PYTORCHJOB;
        if (pyTorchJob && !PyTorchJobs.operatorInstalled(objects.client())) {
            throw new TerminalException(
                    FailureReason.TrainingOperatorMissing,
                    "training.launcher \"pytorchjob\" needs the Kubeflow "
                            + "training operator, and cluster " + run.clusterName()
                            + " has no CustomResourceDefinition "
                            + PyTorchJobs.CRD_NAME + "; install it with: " + PyTorchJobs.INSTALL
                            + " (or use training.launcher \"indexed-job\", which needs nothing installed)");
        }
        if (launcher == Launcher.MPIJOB && !MpiJobs.operatorInstalled(objects.client())) {
            throw new TerminalException(
                    FailureReason.MpiOperatorMissing,
                    "training.launcher \"mpijob\" needs the Kubeflow MPI operator, and cluster " + run.clusterName()
                            + " has no CustomResourceDefinition " + MpiJobs.CRD_NAME + "; install it with: "
                            + MpiJobs.INSTALL
                            + " (or use training.launcher \"indexed-job\", which needs nothing installed)");
        }
        store.update(run.runId(), r -> r.withStatus(RunStatus.TRAINING).withPhase(RunPhase.TRAIN));
        WorkloadManifests manifests = RunCode.manifests(store, run.runId(), run.spec());
        objects.createOrAdopt(manifests.workloadScripts());
        if (pyTorchJob) {
            objects.createOrAdopt(manifests.pyTorchJob());
        } else if (launcher == Launcher.MPIJOB) {
            objects.createOrAdopt(manifests.mpiJob());
        } else {
            objects.createOrAdopt(manifests.trainingService());
            objects.createOrAdopt(manifests.trainingJob());
        }
        return Json.object()
                .put("jobName", run.names().trainingJob())
                .put("launcher", run.spec().training().launcher().json());
    }
}
