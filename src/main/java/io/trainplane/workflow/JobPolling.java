package io.trainplane.workflow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.trainplane.core.Json;
import io.trainplane.kubernetes.JobPods;
import io.trainplane.runs.TrainingProgress;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How long the state machine waits before looking at a running Job again: short while it has just
 * started (most failures show early), then 60 s, so that completion is noticed within a minute for
 * any training of up to {@link #STEADY_POLLING} (the budget of docs/benchmarks.md is for a 2-hour run). Beyond that,
 * without progress lines, the wait grows with the time the Job has run ({@link #GROWTH}: completion
 * is noticed within 1/120 of it, at most {@link #MAX_GROWN_WAIT_SECONDS} late), so that a training
 * as long as maxRunHours allows (168 h) stays far below Step Functions' 25,000 history events per
 * execution (a poll is 9 events: the Task's 5, the Choice's and the Wait's 2 each;
 * https://docs.aws.amazon.com/step-functions/latest/dg/service-quotas.html), which no Catch can
 * take. When the training reports its progress ({@code epoch N/M} in the log of its first pod,
 * as train.py prints it), the wait is a third of the estimated time left, at most
 * {@link #MAX_ESTIMATED_WAIT_SECONDS}, never under 60 s: a 2-hour training takes a few dozen polls
 * rather than 120, a 48-hour one stays far from the execution history limit, and completion is
 * still noticed within a minute unless the estimate is more than 3 times too long.
 */
final class JobPolling {
    static final int MAX_WAIT_SECONDS = 60;
    /** How long a Job is polled every {@link #MAX_WAIT_SECONDS} before the waits grow. */
    static final Duration STEADY_POLLING = Duration.ofHours(2);
    /** Beyond {@link #STEADY_POLLING}, the wait is the time the Job has run divided by this. */
    static final int GROWTH = 120;
    /** The longest wait of a Job that reports no progress. */
    static final int MAX_GROWN_WAIT_SECONDS = 900;

    static final int MAX_ESTIMATED_WAIT_SECONDS = 1800;
    /** What train.py prints after each epoch (docs/workload-contract.md): {@code epoch N/M loss X}. */
    private static final Pattern EPOCH =
            Pattern.compile("epoch (\\d+)/(\\d+)(?: loss ([-+]?[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?))?");

    /**
     * Epochs done of the total, since {@code since} (when the pod that reports them started), and
     * the loss its line reports (null when it reports none).
     */
    record Progress(int done, int total, Instant since, Double loss) {
        Progress(int done, int total, Instant since) {
            this(done, total, since, null);
        }

        /** As the run store keeps it, read {@code at}; empty when the line makes no sense (more done than in all). */
        Optional<TrainingProgress> reading(Instant at) {
            if (done < 0 || total <= 0 || done > total || since.isAfter(at)) {
                return Optional.empty();
            }
            return Optional.of(new TrainingProgress(done, total, loss == null ? 0.0 : loss, at, since));
        }
    }

    private JobPolling() {}

    static int waitSeconds(Job job, Instant now) {
        return waitSeconds(job.getStatus() == null ? null : job.getStatus().getStartTime(), now);
    }

    static int waitSeconds(String start, Instant now) {
        Duration running = start == null ? Duration.ZERO : Duration.between(Instant.parse(start), now);
        if (running.compareTo(Duration.ofMinutes(2)) < 0) {
            return 15;
        }
        if (running.compareTo(Duration.ofMinutes(10)) < 0) {
            return 30;
        }
        if (running.compareTo(STEADY_POLLING) <= 0) {
            return MAX_WAIT_SECONDS;
        }
        return (int) Math.min(MAX_GROWN_WAIT_SECONDS, Math.max(MAX_WAIT_SECONDS, running.toSeconds() / GROWTH));
    }

    static int waitSeconds(String start, Instant now, Optional<Progress> progress) {
        int plain = waitSeconds(start, now);
        if (plain < MAX_WAIT_SECONDS || progress.isEmpty()) {
            return plain;
        }
        Progress p = progress.get();
        if (p.done() <= 0 || p.done() >= p.total() || !p.since().isBefore(now)) {
            return plain;
        }
        Duration perEpoch = Duration.between(p.since(), now).dividedBy(p.done());
        long remaining = perEpoch.multipliedBy(p.total() - p.done()).toSeconds();
        return (int) Math.max(MAX_WAIT_SECONDS, Math.min(MAX_ESTIMATED_WAIT_SECONDS, remaining / 3));
    }

    /** The progress the first pod of a training Job reports in its log, when it reports any. */
    static Optional<Progress> progress(JobPods pods) {
        List<Pod> list = pods.list();
        Optional<Pod> first = list.stream()
                .filter(pod -> pod.getMetadata().getAnnotations() != null
                        && "0".equals(pod.getMetadata().getAnnotations().get(JobPods.COMPLETION_INDEX)))
                .findFirst()
                .or(() -> list.stream().findFirst());
        if (first.isEmpty() || first.get().getStatus() == null) {
            return Optional.empty();
        }
        Pod pod = first.get();
        Instant since = pod.getStatus().getContainerStatuses() == null
                ? null
                : pod.getStatus().getContainerStatuses().stream()
                        .filter(c -> c.getState() != null
                                && c.getState().getRunning() != null
                                && c.getState().getRunning().getStartedAt() != null)
                        .map(c -> Instant.parse(c.getState().getRunning().getStartedAt()))
                        .findFirst()
                        .orElse(null);
        if (since == null && pod.getStatus().getStartTime() != null) {
            since = Instant.parse(pod.getStatus().getStartTime());
        }
        if (since == null) {
            return Optional.empty();
        }
        Optional<String> log = pods.logTail(pod);
        if (log.isEmpty()) {
            return Optional.empty();
        }
        Matcher m = EPOCH.matcher(log.get());
        Progress last = null;
        while (m.find()) {
            try {
                last = new Progress(
                        Integer.parseInt(m.group(1)),
                        Integer.parseInt(m.group(2)),
                        since,
                        m.group(3) == null ? null : Double.valueOf(m.group(3)));
            } catch (NumberFormatException tooLong) {
                // Not a line train.py prints: the last good one stands.
            }
        }
        return Optional.ofNullable(last);
    }

    static ObjectNode notDone(Job job, Instant now) {
        return Json.object().put("done", false).put("waitSeconds", waitSeconds(job, now));
    }

    static ObjectNode notDone(String startTime, Instant now) {
        return Json.object().put("done", false).put("waitSeconds", waitSeconds(startTime, now));
    }

    static ObjectNode done() {
        return Json.object().put("done", true).put("waitSeconds", 0);
    }
}
