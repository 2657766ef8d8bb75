package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.aws.Clients;
import io.trainplane.kubernetes.RunObjects;

/** Looks once at the training job; on completion publishes {@code Training Job Completed}. */
public final class CheckTrainingStep implements Step {
    private final Services services;

    public CheckTrainingStep(Clients clients) {
        this.services = Services.of(clients);
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        RunObjects objects = new RunObjects(services.clusters().connect(run.clusterName()), run.runId());
        String jobName = run.names().trainingJob();
        ObjectNode result = JobWatch.look(objects, jobName, "training", services.clock().instant());
        if (result.path("done").asBoolean()) {
            var status = objects.job(jobName).getStatus();
            services.events().publish("Training Job Completed", Json.object()
                    .put("runId", run.runId()).put("jobName", jobName).put("status", "Succeeded")
                    .put("startTime", status.getStartTime()).put("completionTime", status.getCompletionTime()));
        }
        return result;
    }
}
