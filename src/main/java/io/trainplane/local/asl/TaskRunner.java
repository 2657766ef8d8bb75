package io.trainplane.local.asl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Runs a Task state: InputPath → Parameters → invoke → ResultSelector → ResultPath → OutputPath,
 * with Retry (the first retrier whose ErrorEquals matches decides; each keeps its own count;
 * waiting advances the simulated clock), Catch (the first matching catcher; its ResultPath places
 * the error output in the raw input) and TimeoutSeconds (real plus simulated time of the call).
 */
final class TaskRunner {
    private final ExecutionEnvironment env;

    TaskRunner(ExecutionEnvironment env) {
        this.env = env;
    }

    /** Runs the state entered at {@code entered} with raw input {@code raw}; returns its output and next state. */
    Execution.Step run(State.Task task, JsonNode raw, Instant entered) {
        int[] retriesByRetrier = new int[task.retry().size()];
        int retryCount = 0;
        while (true) {
            try {
                JsonNode result = attempt(task, raw, entered, retryCount);
                JsonNode output = task.outputPath().select(task.resultPath().apply(raw, result));
                return Execution.exit(env, task, output, task.transition().next());
            } catch (StatesError error) {
                if (error.terminal()) {
                    throw error;
                }
                int index = firstMatching(task.retry(), error.error());
                if (index >= 0
                        && retriesByRetrier[index] < task.retry().get(index).maxAttempts()) {
                    Duration delay = task.retry().get(index).delay(retriesByRetrier[index], env.jitter());
                    retriesByRetrier[index]++;
                    retryCount++;
                    env.deadline().waitFor(delay);
                    env.transitions().incrementAndGet();
                    continue;
                }
                Catcher catcher = task.catchers().stream()
                        .filter(c -> c.matches(error.error()))
                        .findFirst()
                        .orElseThrow(() -> error);
                ObjectNode errorOutput = Json.object().put("Error", error.error());
                if (error.cause() != null) {
                    errorOutput.put("Cause", error.cause());
                }
                return Execution.exit(env, task, catcher.resultPath().apply(raw, errorOutput), catcher.next());
            }
        }
    }

    private static int firstMatching(List<Retrier> retriers, String error) {
        for (int i = 0; i < retriers.size(); i++) {
            if (retriers.get(i).matches(error)) {
                return i;
            }
        }
        return -1;
    }

    /** One invocation; returns the effective result (after ResultSelector) or throws the state's error. */
    private JsonNode attempt(State.Task task, JsonNode raw, Instant entered, int retryCount) {
        JsonNode effective = task.inputPath().select(raw);
        JsonNode context = env.context().forState(task.name(), entered, retryCount);
        JsonNode payload = task.parameters() == null
                ? effective
                : task.parameters().evaluate(new Scope(effective, context, env.uuids()));
        PayloadQuota.check(payload, "state/task '" + task.name() + "' input");
        env.listener().beforeTask(task.name(), retryCount);
        String[] resource = resourceParts(task.resource());
        ObjectNode scheduled = resourceDetails(resource).put("region", "local");
        scheduled.set("parameters", payload);
        if (task.timeoutSeconds() != null) {
            scheduled.put("timeoutInSeconds", task.timeoutSeconds());
        }
        env.history().add("TaskScheduled", task.name(), scheduled);
        env.history().add("TaskStarted", task.name(), resourceDetails(resource));

        Instant simulatedStart = env.clock().instant();
        long realStart = System.nanoTime();
        JsonNode result = null;
        TaskFailure failure = null;
        try {
            result = env.invoker()
                    .invoke(
                            task.resource(),
                            payload.deepCopy(),
                            new TaskContext(env.executionName(), task.name(), retryCount, entered));
        } catch (TaskFailure f) {
            failure = f;
        } catch (RuntimeException e) {
            failure = new TaskFailure(
                    e.getClass().getName(),
                    Json.write(Json.object()
                            .put("errorMessage", e.getMessage())
                            .put("errorType", e.getClass().getName())));
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - realStart)
                .plus(Duration.between(simulatedStart, env.clock().instant()));
        env.deadline().check();
        if (task.timeoutSeconds() != null && elapsed.compareTo(Duration.ofSeconds(task.timeoutSeconds())) > 0) {
            String cause = "The task ran " + elapsed.toMillis() + " ms, longer than its TimeoutSeconds of "
                    + task.timeoutSeconds();
            env.history().add("TaskTimedOut", task.name(), errorDetails(resource, ErrorNames.TIMEOUT, cause));
            throw new StatesError(ErrorNames.TIMEOUT, cause);
        }
        if (failure != null) {
            env.history().add("TaskFailed", task.name(), errorDetails(resource, failure.error(), failure.cause()));
            throw new StatesError(failure.error(), failure.cause());
        }
        result = result == null ? Json.NODES.nullNode() : result.deepCopy();
        PayloadQuota.check(result, "state/task '" + task.name() + "' result");
        ObjectNode succeeded = resourceDetails(resource);
        succeeded.set("output", result);
        env.history().add("TaskSucceeded", task.name(), succeeded);
        return task.resultSelector() == null
                ? result
                : task.resultSelector().evaluate(new Scope(result, context, env.uuids()));
    }

    /**
     * AWS's resourceType and resource: "arn:aws:states:::lambda:invoke" is lambda / invoke,
     * "arn:aws:states:::aws-sdk:sfn:describeExecution" aws-sdk:sfn / describeExecution; a function
     * ARN is lambda / the ARN.
     */
    static String[] resourceParts(String resource) {
        String integration = "arn:aws:states:::";
        if (resource.startsWith(integration) && resource.indexOf(':', integration.length()) > 0) {
            String rest = resource.substring(integration.length());
            int colon = rest.lastIndexOf(':');
            return new String[] {rest.substring(0, colon), rest.substring(colon + 1)};
        }
        return new String[] {"lambda", resource};
    }

    private static ObjectNode resourceDetails(String[] resource) {
        return Json.object().put("resourceType", resource[0]).put("resource", resource[1]);
    }

    private static ObjectNode errorDetails(String[] resource, String error, String cause) {
        ObjectNode details = resourceDetails(resource).put("error", error);
        return cause == null ? details : details.put("cause", cause);
    }
}
