package io.trainplane.workflow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import io.trainplane.runs.RunOutputs;

/** The run's outputs as the Run Succeeded event and {@code status --output json} show them. */
public final class RunOutputsJson {
    private RunOutputsJson() {}

    public static ObjectNode of(RunOutputs outputs) {
        ObjectNode json = Json.object()
                .put("s3Uri", outputs.s3Uri())
                .put("modelUri", outputs.modelUri())
                .put("modelSha256", outputs.modelSha256())
                // Where the training's checkpoint sidecar put them; kept as the model is.
                .put("checkpoints", outputs.s3Uri() + io.trainplane.spec.OutputSpec.CHECKPOINTS_PREFIX);
        if (outputs.checkpoint() != null) {
            json.put("checkpoint", outputs.checkpoint());
            if (outputs.checkpointSha256() != null) {
                json.put("checkpointSha256", outputs.checkpointSha256());
            }
        }
        return json;
    }
}
