package io.trainplane.workflow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import io.trainplane.runs.RunOutputs;

/** The run's outputs as the Run Succeeded and Run Stopped events and {@code status --output json} show them. */
public final class RunOutputsJson {
    private RunOutputsJson() {}

    public static ObjectNode of(RunOutputs outputs) {
        ObjectNode json = Json.object().put("s3Uri", outputs.s3Uri());
        if (outputs.modelUri() != null) {
            json.put("modelUri", outputs.modelUri()).put("modelSha256", outputs.modelSha256());
        }
        // Where the training's checkpoint sidecar put them; kept as the model is.
        json.put("checkpoints", outputs.s3Uri() + io.trainplane.spec.OutputSpec.CHECKPOINTS_PREFIX);
        if (outputs.checkpoint() != null) {
            json.put("checkpoint", outputs.checkpoint());
            if (outputs.checkpointSha256() != null) {
                json.put("checkpointSha256", outputs.checkpointSha256());
            }
        }
        return json;
    }
}
