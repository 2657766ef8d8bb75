package io.trainplane.workflow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.time.Duration;
import java.time.Instant;

/**
 * How long the state machine waits before looking at a running Job again: short while it has just
 * started (most failures show early), at most 60 s later, so completion is noticed within a
 * minute and a 48-hour training stays far from the execution history limit.
 */
final class JobPolling {
    static final int MAX_WAIT_SECONDS = 60;

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
        return MAX_WAIT_SECONDS;
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
