package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStore;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.logging.Logger;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionAlreadyExistsException;

/**
 * The second cleanup layer (DESIGN §2): receives EventBridge's "Step Functions Execution Status
 * Change" for the TrainingPipeline and, when the execution was ABORTED, TIMED_OUT or FAILED (a
 * stopped execution runs no Catch), starts the Cleanup state machine for its run, unless the run
 * record says cleanup already finished. The execution name {@code cleanup-<runId>} makes a
 * duplicate event harmless: Step Functions refuses a second execution of the same name.
 */
public final class SafetyNetStep implements Step {
    private static final Logger LOG = Logger.getLogger(SafetyNetStep.class.getName());
    static final Set<String> STATUSES = Set.of("ABORTED", "TIMED_OUT", "FAILED");

    private final RunStore store;
    private final Supplier<SfnClient> sfn;
    private final Supplier<String> cleanupStateMachineArn;

    /** Built by {@link StepWiring#safetyNet}; Step Functions and the Cleanup state machine's ARN are asked for when a cleanup starts. */
    SafetyNetStep(RunStore store, Supplier<SfnClient> sfn, Supplier<String> cleanupStateMachineArn) {
        this.store = store;
        this.sfn = sfn;
        this.cleanupStateMachineArn = cleanupStateMachineArn;
    }

    @Override
    public JsonNode run(JsonNode event) {
        JsonNode detail = event.path("detail");
        String status = detail.path("status").asText("");
        String runId = detail.path("name").asText("");
        var result = Json.object().put("runId", runId).put("executionStatus", status);
        if (!STATUSES.contains(status) || runId.isEmpty()) {
            return result.put("action", "ignored");
        }
        Optional<RunRecord> run = store.find(runId);
        if (run.isPresent() ? CleanupRecord.finished(run.get()) : status.equals("FAILED")) {
            // Without a record the run failed at StartRun, before creating anything, and FinishRun reported it.
            return result.put("action", "not-needed");
        }
        if (run.isPresent() && run.get().status().isTerminal()) {
            // The pipeline's own cleanup gave up (CleanupFailed, CleanupTimedOut): this one gets its own deadline.
            store.update(runId, r -> r.withoutResource(RunResources.CLEANUP_STARTED));
        }
        return result.put("action", startCleanup(runId, status) ? "started" : "already-started");
    }

    /**
     * Starts the Cleanup state machine for a run, {@code reason} being a {@link CloseRunStep.Reason}.
     * Returns false when its execution exists already (someone started it before).
     */
    private boolean startCleanup(String runId, String reason) {
        var input = Json.object().put("runId", runId).put("reason", reason);
        try {
            String arn = sfn.get()
                    .startExecution(r -> r.stateMachineArn(cleanupStateMachineArn.get())
                            .name(executionName(runId))
                            .input(Json.write(input)))
                    .executionArn();
            LOG.info(() -> "cleanup of run " + runId + " started (" + reason + "): " + arn);
            return true;
        } catch (ExecutionAlreadyExistsException e) {
            LOG.info(() -> "cleanup of run " + runId + " already started");
            return false;
        }
    }

    /** The Cleanup execution's name for a run: one per run, ever. */
    public static String executionName(String runId) {
        return "cleanup-" + runId;
    }
}
