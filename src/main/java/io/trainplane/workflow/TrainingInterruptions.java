package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.trainplane.aws.InstancePrices;
import io.trainplane.aws.RunPrices;
import io.trainplane.core.FailureReason;
import io.trainplane.core.Json;
import io.trainplane.core.TerminalException;
import io.trainplane.kubernetes.JobPods;
import io.trainplane.runs.Interruption;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The interruptions of an Indexed Job's training: the pods lost to their nodes, which the Job's pod
 * failure policy replaces without failing. They go into the run record's metrics ({@code restarts},
 * and {@code resumedFromEpoch} as the training reports it), each into its {@code interruptions}
 * (with the minutes it lost and their cost, once its replacement started) and a {@code Training
 * Interrupted} event, both once; more than {@code training.maxInterruptions} fail the run.
 */
final class TrainingInterruptions {
    static final String RESTARTS = "restarts";
    static final String RESUMED_FROM_EPOCH = "resumedFromEpoch";
    static final String TRAINING_INTERRUPTED = "Training Interrupted";

    private final RunStore store;
    private final RunEventPublisher events;
    /** The stack Region's prices, which price the training an interruption lost. */
    private final java.util.function.Supplier<RunPrices> prices;

    TrainingInterruptions(RunStore store, RunEventPublisher events, java.util.function.Supplier<RunPrices> prices) {
        this.prices = prices;
        this.store = store;
        this.events = events;
    }

    /** Records what {@code pods} (the training Job's) show of interruptions; TooManyInterruptions beyond the spec's limit. */
    void look(RunContext run, String jobName, List<Pod> pods, Instant now) {
        List<Pod> interrupted = JobPods.interrupted(pods);
        if (!interrupted.isEmpty()) {
            recordInterruptions(run, jobName, pods, interrupted, now);
        }
        int allowed = run.spec().training().maxInterruptions();
        if (interrupted.size() > allowed) {
            throw tooManyInterruptions(interrupted, allowed);
        }
    }

    /**
     * Notes each pod lost to its node in the record, once, with the {@code restarts} count, and
     * publishes {@code Training Interrupted} for the ones this look found first (after the record
     * has them: a retried look does not announce them again). An interruption noted before is
     * completed once its replacement started: the minutes lost and what they cost. Writes nothing
     * when the record already says all this (CheckTraining looks every few minutes).
     */
    private void recordInterruptions(
            RunContext run, String jobName, List<Pod> pods, List<Pod> interrupted, Instant now) {
        RunRecord before = store.get(run.runId());
        Double groupPerHour = null;
        boolean priced = false;
        List<Interruption> seen = new ArrayList<>();
        for (Pod pod : interrupted) {
            String name = pod.getMetadata().getName();
            Interruption noted = before.interruptions().stream()
                    .filter(i -> i.pod().equals(name))
                    .findFirst()
                    .orElseGet(() -> firstSeen(pod, now));
            if (!noted.resumed()) {
                Optional<Instant> replacement = replacementStart(pod, pods);
                if (replacement.isPresent()) {
                    if (!priced) {
                        groupPerHour = nodeGroupPerHour(run);
                        priced = true;
                    }
                    noted = noted.resumedAt(replacement.get(), groupPerHour);
                }
            }
            seen.add(noted);
        }
        boolean changed = before.metrics().getOrDefault(RESTARTS, 0.0) < interrupted.size()
                || !before.interruptions().containsAll(seen);
        if (!changed) {
            return;
        }
        store.update(run.runId(), r -> {
            RunRecord next = r.metrics().getOrDefault(RESTARTS, 0.0) >= interrupted.size()
                    ? r
                    : r.withMetric(RESTARTS, interrupted.size());
            for (Interruption i : seen) {
                boolean completes = i.resumed()
                        && next.interruptions().stream().anyMatch(k -> k.pod().equals(i.pod()) && !k.resumed());
                next = completes ? next.withInterruptionUpdated(i) : next.withInterruption(i);
            }
            return next;
        });
        // Each event counts the interruptions up to its own, in the order they happened.
        int count = before.interruptions().size();
        List<Interruption> fresh = seen.stream()
                .filter(i -> !before.interrupted(i.pod()))
                .sorted(java.util.Comparator.comparing(Interruption::at))
                .toList();
        for (Interruption i : fresh) {
            events.publish(TRAINING_INTERRUPTED, interruptedEvent(run, jobName, i, ++count));
        }
    }

    private static Interruption firstSeen(Pod pod, Instant now) {
        PodCondition condition = disruption(pod.getStatus().getConditions());
        Instant at = condition.getLastTransitionTime() == null ? now : disruptedAt(pod);
        return Interruption.seen(
                pod.getMetadata().getName(),
                JobPods.completionIndex(pod),
                pod.getSpec() == null ? null : pod.getSpec().getNodeName(),
                condition.getReason(),
                condition.getMessage(),
                at,
                now);
    }

    private static PodCondition disruption(List<PodCondition> conditions) {
        return conditions.stream()
                .filter(c -> JobPods.DISRUPTION_TARGET.equals(c.getType()))
                .findFirst()
                .orElseThrow();
    }

    /** When the pod got its DisruptionTarget condition; the epoch when it does not say. */
    private static Instant disruptedAt(Pod pod) {
        String time = disruption(pod.getStatus().getConditions()).getLastTransitionTime();
        return time == null ? Instant.EPOCH : Instant.parse(time);
    }

    /**
     * When the pod that replaced {@code lost} started: the first pod of the same index to start
     * after it (after the interruption, when the lost pod never started). Empty while none has.
     */
    private static Optional<Instant> replacementStart(Pod lost, List<Pod> pods) {
        Integer index = JobPods.completionIndex(lost);
        if (index == null) {
            return Optional.empty();
        }
        Instant lostStart = startTime(lost);
        return pods.stream()
                .filter(p -> p != lost
                        && !p.getMetadata().getName().equals(lost.getMetadata().getName()))
                .filter(p -> index.equals(JobPods.completionIndex(p)))
                .map(TrainingInterruptions::startTime)
                .filter(start -> start != null
                        && (lostStart != null ? start.isAfter(lostStart) : !start.isBefore(disruptedAt(lost))))
                .min(Instant::compareTo);
    }

    private static Instant startTime(Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getStartTime() == null
                ? null
                : Instant.parse(pod.getStatus().getStartTime());
    }

    /**
     * What the run's node group costs an hour at the Region's prices ({@link InstancePrices#nodePerHour},
     * on demand or Spot, times its nodes); null for an existing cluster's nodes, or an instance
     * type the table does not list.
     */
    private Double nodeGroupPerHour(RunContext run) {
        var group = run.spec().cluster().nodeGroup();
        if (group == null) {
            return null;
        }
        return prices.get()
                .instances()
                .nodePerHour(group)
                .map(price -> price * group.nodes())
                .orElse(null);
    }

    private static ObjectNode interruptedEvent(RunContext run, String jobName, Interruption i, int count) {
        ObjectNode detail = Json.object()
                .put("runId", run.runId())
                .put("jobName", jobName)
                .put("pod", i.pod())
                .put("workerIndex", i.index())
                .put("node", i.node())
                .put("reason", i.reason())
                .put("message", i.message())
                .put("interruptedAt", i.at().toString())
                .put("interruptions", count)
                .put("maxInterruptions", run.spec().training().maxInterruptions());
        if (i.resumed()) {
            detail.put("resumedAt", i.resumedAt().toString())
                    .put("lostMinutes", i.lostMinutes())
                    .put("lostCost", i.lostCost());
        }
        return detail;
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
                FailureReason.TooManyInterruptions,
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
    void recordResumption(RunContext run, JobPods pods) {
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
}
