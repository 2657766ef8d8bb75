package io.trainplane.kubernetes;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.trainplane.spec.Launcher;
import java.util.List;

/**
 * Stops a run's training by suspending its workload: the controller deletes the training's pods,
 * each terminated gracefully (SIGTERM, then its terminationGracePeriodSeconds to write a checkpoint,
 * the path a spot notice takes), and creates no others. A Job's {@code spec.suspend}
 * (https://kubernetes.io/docs/concepts/workloads/controllers/job/#suspending-a-job), a PyTorchJob's
 * and an MPIJob's {@code spec.runPolicy.suspend} (their CRDs: "the Job controller will delete all
 * active Pods"; kubeflow.org_pytorchjobs.yaml v1.9.4, kubeflow.org_mpijobs.yaml v0.8.2). A merge
 * patch: asking again changes nothing, and races no status update.
 */
public final class TrainingSuspension {
    private static final PatchContext MERGE = PatchContext.of(PatchType.JSON_MERGE);

    private TrainingSuspension() {}

    public static void suspend(RunObjects objects, Launcher launcher, String jobName) {
        switch (launcher) {
            case PYTORCHJOB ->
                objects.client()
                        .genericKubernetesResources(PyTorchJobs.CONTEXT)
                        .inNamespace(objects.namespace())
                        .withName(jobName)
                        .patch(MERGE, "{\"spec\":{\"runPolicy\":{\"suspend\":true}}}");
            case MPIJOB ->
                objects.client()
                        .genericKubernetesResources(MpiJobs.CONTEXT)
                        .inNamespace(objects.namespace())
                        .withName(jobName)
                        .patch(MERGE, "{\"spec\":{\"runPolicy\":{\"suspend\":true}}}");
            default ->
                objects.client()
                        .batch()
                        .v1()
                        .jobs()
                        .inNamespace(objects.namespace())
                        .withName(jobName)
                        .patch(MERGE, "{\"spec\":{\"suspend\":true}}");
        }
    }

    /** The training's pods, by the label their controller gives them. */
    public static JobPods pods(RunObjects objects, Launcher launcher, String jobName) {
        return launcher == Launcher.PYTORCHJOB || launcher == Launcher.MPIJOB
                ? new JobPods(objects.client(), objects.namespace(), jobName, PyTorchJobs.JOB_NAME_LABEL)
                : new JobPods(objects.client(), objects.namespace(), jobName);
    }

    /**
     * Whether the training has stopped: none of its pods is pending or running (a pod being
     * terminated stays Running until its containers have exited, then goes).
     */
    public static boolean stopped(List<Pod> pods) {
        return pods.stream()
                .noneMatch(p -> p.getStatus() == null
                        || "Pending".equals(p.getStatus().getPhase())
                        || "Running".equals(p.getStatus().getPhase()));
    }
}
