package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.Clients;
import io.trainplane.kubernetes.RunObjects;

/** Looks once at one of the run's plain Jobs (evaluation, data), named by {@code jobName}. */
public final class CheckJobStep implements Step {
    private final Services services;

    public CheckJobStep(Clients clients) {
        this.services = Services.of(clients);
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        String jobName = Json.text(input, "jobName");
        String what = input.path("purpose").asText("job");
        RunObjects objects = new RunObjects(services.clusters().connect(run.clusterName()), run.runId());
        return JobWatch.look(objects, jobName, what, services.clock().instant());
    }
}
