package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.trainplane.core.Json;
import io.trainplane.core.TerminalException;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.kubernetes.JobPods;
import io.trainplane.kubernetes.PyTorchJobState;
import io.trainplane.kubernetes.PyTorchJobs;
import io.trainplane.kubernetes.RunObjects;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.Launcher;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Looks once at the training (Job or PyTorchJob); on completion publishes {@code Training Job
 * Completed}. Of an Indexed Job it counts the interruptions, the pods lost to their nodes (which
 * the Job's pod failure policy replaces without failing): they go into the run record's metrics
 * ({@code restarts}, and {@code resumedFromEpoch} as the training reports it), and more than
 * {@code training.maxInterruptions} fail the run.
 */
public final class CheckTrainingStep implements KubernetesStep {
    static final String RESTARTS = "restarts";
    static final String RESUMED_FROM_EPOCH = "resumedFromEpoch";

    private final RunStore store;
    private final ClusterAccess clusters;
    private final Clock clock;
    private final RunEventPublisher events;

    public CheckTrainingStep(RunStore store, ClusterAccess clusters, Clock clock, RunEventPublisher events) {
        this.store = store;
        this.clusters = clusters;
        this.clock = clock;
        this.events = events;
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        RunObjects objects = new RunObjects(clusters.connect(run.clusterName()), run.runId());
        String jobName = run.names().trainingJob();
        Instant now = clock.instant();
        if (run.spec().training().launcher() == Launcher.PYTORCHJOB) {
            return lookAtPyTorchJob(run, objects, jobName, now);
        }
        JobPods trainingPods = new JobPods(objects.client(), objects.namespace(), jobName);
        List<Pod> interrupted = JobPods.interrupted(trainingPods.list());
        int allowed = run.spec().training().maxInterruptions();
        if (!interrupted.isEmpty()) {
            store.update(
                    run.runId(),
                    r -> r.metrics().getOrDefault(RESTARTS, 0.0) >= interrupted.size()
                            ? r
                            : r.withMetric(RESTARTS, interrupted.size()));
        }
        if (interrupted.size() > allowed) {
            throw tooManyInterruptions(interrupted, allowed);
        }
        ObjectNode result = JobWatch.look(objects, jobName, "training", now);
        if (result.path("done").asBoolean()) {
            var status = objects.job(jobName).getStatus();
            recordResumption(run, trainingPods);
            completed(run, jobName, status.getStartTime(), status.getCompletionTime());
        } else {
            // The training's own progress tells how long it still has: wait for a part of that.
            var status = objects.job(jobName).getStatus();
            String start = status == null ? null : status.getStartTime();
            var progress = JobPolling.progress(trainingPods);
            result.put("waitSeconds", JobPolling.waitSeconds(start, now, progress));
        }
        return result;
    }

    /**
     * More pods lost to their nodes than the spec allows. Counted from the pods that still show it:
     * a lost pod the cluster has garbage-collected since is missed here, though not in the record's
     * {@code restarts}, which only grows.
     */
    private static TerminalException tooManyInterruptions(List<Pod> interrupted, int allowed) {
        String lost = interrupted.stream()
                .map(p -> p.getMetadata().getName() + " (" + disruption(p) + ")")
                .collect(Collectors.joining(", "));
        return new TerminalException(
                "TooManyInterruptions",
                "training was interrupted " + interrupted.size() + " times (training.maxInterruptions is " + allowed
                        + "): pods lost to their nodes: " + lost
                        + "; raise training.maxInterruptions (up to 20), or train on ON_DEMAND capacity"
                        + " (cluster.nodeGroup.capacityType) when spot instances are reclaimed this often");
    }

    private static String disruption(Pod pod) {
        return pod.getStatus().getConditions().stream()
                .filter(c -> JobPods.DISRUPTION_TARGET.equals(c.getType()))
                .map(c -> c.getReason() + (c.getMessage() == null ? "" : ": " + c.getMessage()))
                .findFirst()
                .orElse(JobPods.DISRUPTION_TARGET);
    }

    /**
     * What the training says of its restarts in its pods' termination messages (JSON, as train.py
     * writes them after resuming: {@code restarts}, {@code resumedFromEpoch}), kept in the record's
     * metrics; the most any pod says wins, and a count the record has already is not lowered.
     */
    private void recordResumption(RunContext run, JobPods pods) {
        Map<String, Double> reported = new TreeMap<>();
        for (Pod pod : pods.list()) {
            if (pod.getStatus() == null || !"Succeeded".equals(pod.getStatus().getPhase())) {
                continue;
            }
            String message = terminationMessage(pod);
            if (message == null || !message.trim().startsWith("{")) {
                continue;
            }
            try {
                JsonNode json = Json.read(message);
                for (String metric : List.of(RESTARTS, RESUMED_FROM_EPOCH)) {
                    if (json.path(metric).isNumber()) {
                        reported.merge(metric, json.path(metric).asDouble(), Math::max);
                    }
                }
            } catch (RuntimeException notJson) {
                // A message that is not the training's metrics (a traceback, a note): nothing to record.
            }
        }
        if (reported.isEmpty()) {
            return;
        }
        store.update(run.runId(), r -> {
            RunRecord next = r;
            for (var metric : reported.entrySet()) {
                double known = r.metrics().getOrDefault(metric.getKey(), 0.0);
                if (metric.getValue() > known || !r.metrics().containsKey(metric.getKey())) {
                    next = next.withMetric(metric.getKey(), Math.max(known, metric.getValue()));
                }
            }
            return next;
        });
    }

    private static String terminationMessage(Pod pod) {
        var statuses = pod.getStatus().getContainerStatuses();
        if (statuses == null) {
            return null;
        }
        return statuses.stream()
                .filter(c -> c.getState() != null && c.getState().getTerminated() != null)
                .map(c -> c.getState().getTerminated().getMessage())
                .filter(m -> m != null && !m.isBlank())
                .findFirst()
                .orElse(null);
    }

    private ObjectNode lookAtPyTorchJob(RunContext run, RunObjects objects, String jobName, Instant now) {
        PyTorchJobState state = PyTorchJobState.of(PyTorchJobs.get(objects.client(), objects.namespace(), jobName));
        JobPods pods = new JobPods(objects.client(), objects.namespace(), jobName, PyTorchJobs.JOB_NAME_LABEL);
        return switch (state) {
            case PyTorchJobState.Missing m -> throw JobWatch.deleted(objects, "PyTorchJob", jobName, "training");
            case PyTorchJobState.Succeeded s -> {
                completed(run, jobName, s.startTime(), s.completionTime());
                yield JobPolling.done();
            }
            case PyTorchJobState.Failed f -> {
                JobWatch.diagnose(pods, "training", jobName, now, true);
                String tail = pods.failureTail()
                        .map(t -> "\nlast lines of the failed pod:\n" + t)
                        .orElse("");
                throw new TerminalException(
                        "TrainingFailed",
                        "the training PyTorchJob " + jobName + " failed (" + f.reason() + ": " + f.message() + ")"
                                + tail);
            }
            case PyTorchJobState.Active a -> {
                JobWatch.diagnose(pods, "training", jobName, now, false);
                yield JobPolling.notDone(a.startTime(), now);
            }
        };
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
