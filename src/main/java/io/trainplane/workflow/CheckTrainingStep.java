package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.trainplane.core.FailureReason;
import io.trainplane.core.Json;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.kubernetes.JobPods;
import io.trainplane.kubernetes.MpiJobs;
import io.trainplane.kubernetes.PyTorchJobState;
import io.trainplane.kubernetes.PyTorchJobs;
import io.trainplane.kubernetes.RunObjects;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.Launcher;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * Looks once at the training (Job, PyTorchJob or MPIJob); on completion publishes {@code Training Job
 * Completed}. The pods of an Indexed Job lost to their nodes are {@link TrainingInterruptions}'; a
 * worker that failed with the user's code and no node lost fails the run at once ({@link
 * UserCrash}); a run that reaches its budget is stopped by {@link TrainingBudget}.
 */
public final class CheckTrainingStep implements KubernetesStep {

    private final RunStore store;
    private final ClusterAccess clusters;
    private final Clock clock;
    private final RunEventPublisher events;
    private final TrainingInterruptions interruptions;
    private final TrainingBudget budget;
    private final UserCrash crashes;

    public CheckTrainingStep(
            RunStore store, ClusterAccess clusters, Clock clock, RunEventPublisher events, RunCostRecorder costs) {
        this.store = store;
        this.clusters = clusters;
        this.clock = clock;
        this.events = events;
        this.interruptions = new TrainingInterruptions(store, events, costs::prices);
        this.budget = new TrainingBudget(store, costs);
        this.crashes = new UserCrash(store);
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        RunObjects objects = new RunObjects(clusters.connect(run.clusterName()), run.runId());
        if (run.spec().budgetUsd() != null && budget.reached(run).isPresent()) {
            // Its pods are going away by the run's own doing: neither interruptions nor failures.
            return budget.stopping(run, objects);
        }
        ObjectNode result = look(run, objects);
        if (!result.path("done").asBoolean()) {
            budget.hold(run, objects, result);
        }
        return result;
    }

    private ObjectNode look(RunContext run, RunObjects objects) {
        String jobName = run.names().trainingJob();
        Instant now = clock.instant();
        if (run.spec().training().launcher() == Launcher.PYTORCHJOB) {
            return lookAtKubeflowJob(
                    run, objects, "PyTorchJob", PyTorchJobs.get(objects.client(), objects.namespace(), jobName), now);
        }
        if (run.spec().training().launcher() == Launcher.MPIJOB) {
            return lookAtKubeflowJob(
                    run, objects, "MPIJob", MpiJobs.get(objects.client(), objects.namespace(), jobName), now);
        }
        JobPods trainingPods = new JobPods(objects.client(), objects.namespace(), jobName);
        interruptions.look(run, jobName, trainingPods.list(), now);
        noteCheckpointSync(run, trainingPods.list());
        ObjectNode result = JobWatch.look(objects, jobName, "training", now);
        if (result.path("done").asBoolean()) {
            var status = objects.job(jobName).getStatus();
            interruptions.recordResumption(run, trainingPods);
            // The last epoch's line, once: the progress shows the training through to its end.
            record(run, result, JobPolling.progress(trainingPods), now);
            completed(run, jobName, status.getStartTime(), status.getCompletionTime());
        } else {
            crashes.look(
                    run,
                    objects.client(),
                    "Job",
                    jobName,
                    trainingPods,
                    run.spec().training().maxRestarts(),
                    false);
            // The training's own progress tells how long it still has: wait for a part of that.
            var status = objects.job(jobName).getStatus();
            String start = status == null ? null : status.getStartTime();
            var progress = JobPolling.progress(trainingPods);
            result.put("waitSeconds", JobPolling.waitSeconds(start, now, progress));
            record(run, result, progress, now);
        }
        return result;
    }

    /**
     * A PyTorchJob or an MPIJob ({@code kind}), by the conditions its operator writes; their pods
     * (an MPIJob's workers and its launcher Job's pod) carry the job's name in the same label.
     */
    private ObjectNode lookAtKubeflowJob(
            RunContext run, RunObjects objects, String kind, GenericKubernetesResource job, Instant now) {
        String jobName = run.names().trainingJob();
        PyTorchJobState state = PyTorchJobState.of(job);
        JobPods pods = new JobPods(objects.client(), objects.namespace(), jobName, PyTorchJobs.JOB_NAME_LABEL);
        return switch (state) {
            case PyTorchJobState.Missing m -> throw JobWatch.deleted(objects, kind, jobName, "training");
            case PyTorchJobState.Succeeded s -> {
                noteCheckpointSync(run, pods.list());
                interruptions.recordResumption(run, pods);
                completed(run, jobName, s.startTime(), s.completionTime());
                ObjectNode done = JobPolling.done();
                record(run, done, JobPolling.progress(pods), now);
                yield done;
            }
            case PyTorchJobState.Failed f -> {
                JobWatch.diagnose(pods, "training", jobName, now, true);
                throw JobWatch.failed(
                        FailureReason.TrainingFailed,
                        "the training " + kind + " " + jobName + " failed (" + f.reason() + ": " + f.message() + ")",
                        pods);
            }
            case PyTorchJobState.Active a -> {
                noteCheckpointSync(run, pods.list());
                JobWatch.diagnose(pods, "training", jobName, now, false);
                // torchrun's restarts: the elasticPolicy's, which a PyTorchJob of one worker has not;
                // an MPIJob's: its launcher Job's backoffLimit.
                boolean mpi = "MPIJob".equals(kind);
                int restarts = mpi || run.spec().training().workers() > 1
                        ? run.spec().training().maxRestarts()
                        : 0;
                crashes.look(run, objects.client(), kind, jobName, pods, restarts, mpi);
                ObjectNode result = JobPolling.notDone(a.startTime(), now);
                record(run, result, JobPolling.progress(pods), now);
                yield result;
            }
        };
    }

    /**
     * Records how far the training is (one item a run, replaced each look: watch and status show
     * it) and puts it in the look's result, where run's progress view reads it from the history.
     */
    private void record(RunContext run, ObjectNode result, Optional<JobPolling.Progress> progress, Instant now) {
        progress.flatMap(p -> p.reading(now)).ifPresent(p -> {
            try {
                store.recordProgress(run.runId(), p);
            } catch (RuntimeException e) {
                // The progress is for people; the look's outcome never depends on it.
                java.util.logging.Logger.getLogger(CheckTrainingStep.class.getName())
                        .warning("training progress of " + run.runId() + " not recorded: " + e);
            }
            result.putObject("progress")
                    .put("epoch", p.epoch())
                    .put("epochs", p.epochs())
                    .put("loss", p.loss())
                    .put("since", p.since().toString());
        });
    }

    /** Notes in the record, once, why the checkpoint sidecar could not sync: the run goes on, and says so. */
    private void noteCheckpointSync(RunContext run, java.util.List<io.fabric8.kubernetes.api.model.Pod> pods) {
        JobPods.checkpointSyncFailure(pods).ifPresent(reason -> {
            if (!reason.equals(store.get(run.runId())
                    .resources()
                    .get(RunResources.CHECKPOINT_SYNC_FAILED)
                    .orElse(null))) {
                store.update(run.runId(), r -> r.withResource(RunResources.CHECKPOINT_SYNC_FAILED, reason));
            }
        });
    }

    private void completed(RunContext run, String jobName, String startTime, String completionTime) {
        events.publish(
                "Training Job Completed",
                Json.object()
                        .put("runId", run.runId())
                        .put("jobName", jobName)
                        .put("status", "Succeeded")
                        .put("startTime", startTime)
                        .put("completionTime", completionTime));
    }
}
