package io.trainplane.local;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.Clients;
import io.trainplane.local.asl.TaskContext;
import io.trainplane.local.asl.TaskFailure;
import io.trainplane.local.asl.TaskInvoker;
import io.trainplane.workflow.Json;
import io.trainplane.workflow.StepHandler;
import io.trainplane.workflow.TransientException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Invokes the stack's Lambda handlers in process, as the Lambda service would: JSON bytes in and
 * out, an exception reported as its class name (the error) and {@code errorMessage}/{@code
 * errorType} JSON (the cause). Injected faults strike before the handler runs.
 */
public final class LocalLambdas implements TaskInvoker {
    public static final String ARN_PREFIX = "arn:aws:lambda:us-east-1:000000000000:function:";
    public static final String ALIAS = "live";

    private final Map<String, StepHandler> handlers = new LinkedHashMap<>();
    private final Faults faults;
    private final Runnable beforeEachInvoke;
    private final SimulatedClock clock;
    private final Set<String> flaked = ConcurrentHashMap.newKeySet();

    public LocalLambdas(Map<String, Function<Clients, StepHandler>> functions, Clients clients, Faults faults,
                        Runnable beforeEachInvoke, SimulatedClock clock) {
        functions.forEach((name, factory) -> handlers.put(name, factory.apply(clients)));
        this.faults = faults;
        this.beforeEachInvoke = beforeEachInvoke;
        this.clock = clock;
    }

    /** DefinitionSubstitutions as template.yaml passes them: {@code <Name>FunctionArn} → the alias ARN. */
    public Map<String, String> substitutions() {
        return substitutions(handlers.keySet());
    }

    /** The substitutions for these function names, without building their handlers. */
    public static Map<String, String> substitutions(Collection<String> functionNames) {
        Map<String, String> substitutions = new LinkedHashMap<>();
        functionNames.forEach(name -> substitutions.put(name + "FunctionArn", ARN_PREFIX + name + ":" + ALIAS));
        return substitutions;
    }

    @Override
    public JsonNode invoke(String resource, JsonNode payload, TaskContext context) throws TaskFailure {
        String function = functionName(resource);
        StepHandler handler = handlers.get(function);
        if (handler == null) {
            throw new TaskFailure("Lambda.ResourceNotFoundException", "Function not found: " + resource);
        }
        if (faults.failAt().contains(context.stateName())) {
            throw failure(Faults.INJECTED_ERROR, "fault injected at " + context.stateName() + " (--fail-at)");
        }
        if (faults.flaky().contains(context.stateName()) && flaked.add(context.stateName())) {
            throw failure(TransientException.class.getName(), "transient fault injected at " + context.stateName() + " (--flaky)");
        }
        beforeEachInvoke.run();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long start = System.nanoTime();
        try {
            handler.handleRequest(new ByteArrayInputStream(Json.write(payload).getBytes()), out, null);
        } catch (IOException | RuntimeException e) {
            throw failure(e.getClass().getName(), e.getMessage());
        } finally {
            // An invocation takes time on Lambda too: the simulated clock moves by what it really took.
            clock.advance(Duration.ofNanos(Math.max(1_000_000, System.nanoTime() - start)));
        }
        return Json.read(out.toString());
    }

    private static String functionName(String resource) {
        if (!resource.startsWith(ARN_PREFIX)) {
            return resource;
        }
        String rest = resource.substring(ARN_PREFIX.length());
        int alias = rest.indexOf(':');
        return alias < 0 ? rest : rest.substring(0, alias);
    }

    private static TaskFailure failure(String errorType, String message) {
        var cause = Json.object().put("errorMessage", message == null ? errorType : message).put("errorType", errorType);
        cause.putArray("stackTrace");
        return new TaskFailure(errorType, Json.write(cause));
    }
}
