package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import io.trainplane.core.TerminalException;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.kubernetes.PyTorchJobs;
import io.trainplane.kubernetes.RunObjects;
import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.runs.RunPhase;
import io.trainplane.runs.RunStatus;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.Launcher;

/**
 * Creates (or adopts) the workload scripts and the training: an Indexed Job with its rendezvous
 * Service, or a PyTorchJob when the Kubeflow training operator is on the cluster.
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
        boolean pyTorchJob = run.spec().training().launcher() == Launcher.PYTORCHJOB;
        if (pyTorchJob && !PyTorchJobs.operatorInstalled(objects.client())) {
            throw new TerminalException(
                    "TrainingOperatorMissing",
                    "training.launcher \"pytorchjob\" needs the Kubeflow "
                            + "training operator, and cluster " + run.clusterName()
                            + " has no CustomResourceDefinition "
                            + PyTorchJobs.CRD_NAME + "; install it with: " + PyTorchJobs.INSTALL
                            + " (or use training.launcher \"indexed-job\", which needs nothing installed)");
        }
        store.update(run.runId(), r -> r.withStatus(RunStatus.TRAINING).withPhase(RunPhase.TRAIN));
        WorkloadManifests manifests = RunCode.manifests(store, run.runId(), run.spec());
        objects.createOrAdopt(manifests.workloadScripts());
        if (pyTorchJob) {
            objects.createOrAdopt(manifests.pyTorchJob());
        } else {
            objects.createOrAdopt(manifests.trainingService());
            objects.createOrAdopt(manifests.trainingJob());
        }
        return Json.object()
                .put("jobName", run.names().trainingJob())
                .put("launcher", run.spec().training().launcher().json());
    }
}
