package io.trainplane.kubernetes;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;

/** Where a Job stands, read from its status conditions as the Job controller writes them. */
public sealed interface JobState {
    record Running(int active, int succeeded) implements JobState {}

    record Succeeded() implements JobState {}

    record Failed(String reason, String message) implements JobState {}

    /** The Job is gone although the run did not delete it. */
    record Missing() implements JobState {}

    static JobState of(Job job) {
        if (job == null) {
            return new Missing();
        }
        if (job.getStatus() != null && job.getStatus().getConditions() != null) {
            for (JobCondition c : job.getStatus().getConditions()) {
                if (!"True".equals(c.getStatus())) {
                    continue;
                }
                if ("Complete".equals(c.getType())) {
                    return new Succeeded();
                }
                if ("Failed".equals(c.getType())) {
                    return new Failed(c.getReason(), c.getMessage());
                }
            }
        }
        var status = job.getStatus();
        return new Running(
                status == null || status.getActive() == null ? 0 : status.getActive(),
                status == null || status.getSucceeded() == null ? 0 : status.getSucceeded());
    }
}
