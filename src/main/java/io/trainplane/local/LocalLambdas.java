package io.trainplane.local;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.clients.Clients;
import io.trainplane.core.Json;
import io.trainplane.core.TransientException;
import io.trainplane.local.asl.TaskContext;
import io.trainplane.local.asl.TaskFailure;
import io.trainplane.local.asl.TaskInvoker;
import io.trainplane.local.iam.AuditEntry;
import io.trainplane.local.iam.Callers;
import io.trainplane.local.iam.IamRequest;
import io.trainplane.local.iam.StackFunction;
import io.trainplane.local.iam.StackPrincipals;
import io.trainplane.workflow.LambdaFunction;
import io.trainplane.workflow.Pipeline;
import io.trainplane.workflow.StepHandler;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Invokes the stack's Lambda handlers in process, as the Lambda service would: by the ARNs
 * template.yaml gives them, JSON bytes in and out, each invocation running as the function's
 * execution role, an exception reported as its class name (the error) and
 * {@code errorMessage}/{@code errorType} JSON (the cause), an invocation longer than the
 * function's Timeout (template.yaml) as Lambda's {@value #TIMED_OUT}, payloads within Lambda's
 * quota ({@link LambdaPayloads}). Injected faults strike before
 * the handler runs, but for {@link LambdaFault#TIMEOUT}, which strikes after. The handlers are the functions {@link Pipeline} declares, on the local cloud's clients.
 */
public final class LocalLambdas implements TaskInvoker {
    /** The error type Lambda reports for an invocation past its function's Timeout. */
    static final String TIMED_OUT = "Sandbox.Timedout";

    private final Map<String, StepHandler> handlers = new LinkedHashMap<>();
    private final Map<String, StackFunction> functions = new LinkedHashMap<>();
    private final Map<String, String> names = new LinkedHashMap<>();
    private final LocalCloud cloud;
    private final StackPrincipals principals;
    private final Faults faults;
    private final Set<String> flaked = ConcurrentHashMap.newKeySet();
    private final Set<LambdaFault> lambdaFaults;
    /** Each Lambda fault strikes a function once: "fault function" keys. */
    private final Set<String> struck = ConcurrentHashMap.newKeySet();

    public LocalLambdas(LocalCloud cloud, Faults faults) {
        this.cloud = cloud;
        this.principals = new StackPrincipals(cloud.stack());
        this.faults = faults;
        this.lambdaFaults = LambdaFault.in(faults.awsFailures());
        Clients clients = cloud.clients();
        for (LambdaFunction function : Pipeline.FUNCTIONS) {
            handlers.put(function.name(), function.handler(clients));
        }
        for (String name : handlers.keySet()) {
            StackFunction function = cloud.stack().functions().get(name + "Function");
            if (function != null) {
                functions.put(name, function);
                names.put(function.arn(), name);
                names.put(function.aliasArn(), name);
            }
        }
    }

    /** The ARN state machines and event rules invoke {@code function} by: its alias's. */
    public String arn(String function) {
        StackFunction stackFunction = cloud.stack().functions().get(function + "Function");
        if (stackFunction == null) {
            throw new IllegalArgumentException(
                    "template.yaml creates no " + function + "Function with these parameters");
        }
        return stackFunction.aliasArn();
    }

    /**
     * The functions as state machine {@code machine} invokes them: lambda:InvokeFunction is asked
     * of its role first; a refusal is the Task's error as Step Functions reports it
     * (https://docs.aws.amazon.com/step-functions/latest/dg/connect-lambda.html: {@code Lambda.AWSLambdaException}).
     */
    public TaskInvoker invokedBy(String machine) {
        var caller = principals.stateMachine(machine);
        return (resource, payload, context) -> {
            AuditEntry entry = cloud.iam().authorize(caller, IamRequest.of("lambda:InvokeFunction", resource));
            if (!entry.decision().allowed()) {
                throw new TaskFailure(
                        "Lambda.AWSLambdaException",
                        "User: " + entry.principal()
                                + " is not authorized to perform: lambda:InvokeFunction on resource: " + resource
                                + " because no identity-based policy allows the lambda:InvokeFunction action"
                                + " (Service: Lambda, Status Code: 403, Error Code: AccessDeniedException)");
            }
            return invoke(resource, payload, context);
        };
    }

    @Override
    public JsonNode invoke(String resource, JsonNode payload, TaskContext context) throws TaskFailure {
        String function = names.getOrDefault(resource, resource);
        StepHandler handler = handlers.get(function);
        if (handler == null) {
            throw new TaskFailure("Lambda.ResourceNotFoundException", "Function not found: " + resource);
        }
        if (faults.failAt().contains(context.stateName())) {
            throw failure(Faults.INJECTED_ERROR, "fault injected at " + context.stateName() + " (--fail-at)");
        }
        if (faults.flaky().contains(context.stateName()) && flaked.add(context.stateName())) {
            throw failure(
                    TransientException.class.getName(),
                    "transient fault injected at " + context.stateName() + " (--flaky)");
        }
        int timeout = functions.containsKey(function) ? functions.get(function).timeoutSeconds() : Integer.MAX_VALUE;
        for (LambdaFault fault : lambdaFaults) {
            if (!fault.afterRunning() && struck.add(fault + " " + function)) {
                throw failure(fault.error(), fault.message(timeout));
            }
        }
        byte[] request = Json.write(payload).getBytes(StandardCharsets.UTF_8);
        LambdaPayloads.checkRequest(request.length);
        cloud.reconcile();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long start = System.nanoTime();
        try {
            Callers.as(principals.function(function), () -> {
                try {
                    handler.handleRequest(new ByteArrayInputStream(request), out, null);
                    return null;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw failure(e.getCause().getClass().getName(), e.getCause().getMessage());
        } catch (RuntimeException e) {
            throw failure(e.getClass().getName(), e.getMessage());
        } finally {
            // An invocation takes time on Lambda too: the simulated clock moves by what it really took.
            cloud.clock().advance(Duration.ofNanos(Math.max(1_000_000, System.nanoTime() - start)));
        }
        // What the step created is acted on at once, as a cluster's scheduler and controllers do,
        // not at the next invocation (seconds to minutes later in simulated time).
        cloud.reconcile();
        // Past its Timeout Lambda stops the function: what it did stays done, its answer is lost.
        if (System.nanoTime() - start > Duration.ofSeconds(timeout).toNanos()) {
            throw failure(TIMED_OUT, timedOut(timeout));
        }
        if (lambdaFaults.contains(LambdaFault.TIMEOUT) && struck.add(LambdaFault.TIMEOUT + " " + function)) {
            throw failure(LambdaFault.TIMEOUT.error(), LambdaFault.TIMEOUT.message(timeout));
        }
        // Like a timeout, an answer too large for Lambda is lost after the function did its work.
        if (LambdaPayloads.responseTooLarge(out.size())) {
            throw failure(LambdaPayloads.RESPONSE_TOO_LARGE, LambdaPayloads.responseMessage());
        }
        return Json.read(out.toString(StandardCharsets.UTF_8));
    }

    /** Lambda's message for an invocation stopped at its function's Timeout. */
    static String timedOut(int timeoutSeconds) {
        return String.format(java.util.Locale.ROOT, "Task timed out after %d.00 seconds", timeoutSeconds);
    }

    private static TaskFailure failure(String errorType, String message) {
        var cause = Json.object()
                .put("errorMessage", message == null ? errorType : message)
                .put("errorType", errorType);
        cause.putArray("stackTrace");
        return new TaskFailure(errorType, Json.write(cause));
    }
}
