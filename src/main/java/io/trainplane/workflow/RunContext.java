package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import io.trainplane.spec.Names;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.RunSpecs;

/** The part of the execution state every step after StartRun receives: the run and its spec. */
public record RunContext(String runId, RunSpec spec, Names names) {

    public static RunContext from(JsonNode state) {
        String runId = Json.text(state, "runId");
        RunSpec spec = RunSpecs.fromNormalized(state.path("spec")).withRunId(runId);
        return new RunContext(runId, spec, spec.names());
    }

    /** The cluster the run works on: the one it created, or the existing one it names. */
    public String clusterName() {
        return spec.cluster().created() ? names.clusterName() : spec.cluster().name();
    }
}
