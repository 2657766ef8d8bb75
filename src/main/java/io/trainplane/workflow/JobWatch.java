package io.trainplane.workflow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.trainplane.kubernetes.JobPods;
import io.trainplane.kubernetes.JobState;
import io.trainplane.kubernetes.RunObjects;
import java.time.Instant;

/** Looks once at a Job of the run: done, not yet (with how long to wait), or a terminal failure. */
final class JobWatch {
    private JobWatch() {}

    static ObjectNode look(RunObjects objects, String jobName, String what, Instant now) {
        Job job = objects.job(jobName);
        return switch (JobState.of(job)) {
            case JobState.Succeeded s -> JobPolling.done();
            case JobState.Running r -> JobPolling.notDone(job, now);
            case JobState.Missing m -> throw new TerminalException("JobDeleted",
                    "the " + what + " Job " + objects.namespace() + "/" + jobName
                            + " was deleted while the run was waiting for it");
            case JobState.Failed f -> {
                String tail = new JobPods(objects.client(), objects.namespace(), jobName).failureTail()
                        .map(t -> "\nlast lines of the failed pod:\n" + t).orElse("");
                throw new TerminalException(capitalize(what) + "Failed", "the " + what + " Job " + jobName
                        + " failed (" + f.reason() + ": " + f.message() + ")" + tail);
            }
        };
    }

    private static String capitalize(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
