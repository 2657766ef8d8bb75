package io.trainplane.local;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import io.trainplane.local.asl.ExecutionListener;
import io.trainplane.local.asl.ExecutionResult;
import io.trainplane.local.asl.Executor;
import io.trainplane.local.asl.StateMachine;
import io.trainplane.local.asl.TaskContext;
import io.trainplane.local.asl.TaskFailure;
import io.trainplane.local.sim.SimulatedEventBus;
import java.util.Set;
import java.util.logging.Logger;

/**
 * The safety net's wiring in the simulated account, as template.yaml deploys it: the Cleanup state
 * machine ({@code statemachines/cleanup.asl.json}, run by the local executor with the same
 * {@link LocalLambdas} as the pipeline) registered in the simulated Step Functions, and the rule on
 * the default bus that sends the pipeline's "Step Functions Execution Status Change" events
 * (ABORTED, TIMED_OUT, FAILED) to the SafetyNet function.
 */
public final class LocalSafetyNet {
    public static final String CLEANUP = "/statemachines/cleanup.asl.json";
    public static final String STATUS_CHANGE = "Step Functions Execution Status Change";
    private static final Set<String> STATUSES = Set.of("ABORTED", "TIMED_OUT", "FAILED");
    private static final Logger LOG = Logger.getLogger(LocalSafetyNet.class.getName());

    private LocalSafetyNet() {}

    /** Deploys the Cleanup machine and the safety-net rule into {@code cloud}, invoking functions through {@code lambdas}. */
    public static void install(LocalCloud cloud, LocalLambdas lambdas) {
        StateMachine cleanup =
                StateMachine.parse(LocalRun.definition(CLEANUP), LocalCloud.substitutions(LocalCloud.CLEANUP_MACHINE));
        var invoker = LocalServiceIntegrations.around(
                lambdas.invokedBy(LocalCloud.CLEANUP_MACHINE), cloud, LocalCloud.CLEANUP_MACHINE);
        cloud.stepFunctions().register(LocalCloud.CLEANUP_ARN, (name, input) -> new Executor(cloud.clock())
                .execute(cleanup, name, input, invoker, ExecutionListener.NONE)
                .status()
                .name());
        cloud.bus().addRule("SafetyNet", LocalSafetyNet::matches, event -> invoke(cloud, lambdas, event));
    }

    /** What Step Functions puts on the default bus when an execution of the pipeline ends. */
    public static void statusChanged(LocalCloud cloud, ExecutionResult result) {
        String arn = io.trainplane.aws.ExecutionArns.of(LocalCloud.PIPELINE_ARN, result.executionName());
        var detail = Json.object()
                .put("executionArn", arn)
                .put("stateMachineArn", LocalCloud.PIPELINE_ARN)
                .put("name", result.executionName())
                .put("status", result.status().name())
                .put("startDate", result.startDate().toEpochMilli())
                .put(
                        "stopDate",
                        result.stopDate() == null ? null : result.stopDate().toEpochMilli());
        cloud.bus().emit("default", "aws.states", STATUS_CHANGE, detail);
    }

    /** The rule's event pattern (template.yaml's SafetyNetRule). */
    static boolean matches(SimulatedEventBus.Event event) {
        return "default".equals(event.bus())
                && "aws.states".equals(event.source())
                && STATUS_CHANGE.equals(event.detailType())
                && LocalCloud.PIPELINE_ARN.equals(
                        event.detail().path("stateMachineArn").asText())
                && STATUSES.contains(event.detail().path("status").asText());
    }

    private static void invoke(LocalCloud cloud, LocalLambdas lambdas, SimulatedEventBus.Event event) {
        try {
            // EventBridge invokes the function through its resource-based policy (SAM's permission for
            // the rule), which the simulation does not evaluate.
            JsonNode result = lambdas.invoke(
                    lambdas.arn("SafetyNet"),
                    event.envelope(),
                    new TaskContext(
                            event.detail().path("name").asText(),
                            "SafetyNet",
                            0,
                            cloud.clock().instant()));
            LOG.fine(() -> "safety net: " + Json.write(result));
        } catch (TaskFailure e) {
            // EventBridge retries a failed asynchronous invocation; locally the failure is reported, not hidden.
            LOG.warning(() -> "safety net failed: " + e.getMessage());
        }
    }
}
