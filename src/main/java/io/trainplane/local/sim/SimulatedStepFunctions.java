package io.trainplane.local.sim;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import io.trainplane.local.iam.Authorizer;
import io.trainplane.local.iam.IamRequest;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionRequest;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionAlreadyExistsException;
import software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.StartExecutionRequest;
import software.amazon.awssdk.services.sfn.model.StartExecutionResponse;
import software.amazon.awssdk.services.sfn.model.StateMachineDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.StopExecutionRequest;
import software.amazon.awssdk.services.sfn.model.StopExecutionResponse;

/**
 * Step Functions in process, for the state machines local mode registers (the Cleanup machine):
 * StartExecution runs the execution to its end on the caller's thread (simulated time makes that
 * quick) and refuses a second execution of the same name with {@code ExecutionAlreadyExists}, as
 * AWS does for 90 days. An execution run by someone else (the pipeline {@code trainplane run}
 * runs) is {@link #running} here while it runs: DescribeExecution sees it and StopExecution asks it
 * to stop. Calls are logged as {@code states:<Operation>} and pass the {@link FaultPlan}.
 */
public final class SimulatedStepFunctions implements SfnClient {
    /** Runs one execution: its name and input in, its final status (SUCCEEDED, FAILED, …) out. */
    @FunctionalInterface
    public interface Machine {
        String execute(String executionName, JsonNode input);
    }

    /** One execution started here, with how it ended. */
    public record ExecutionRecord(
            String executionArn, String stateMachineArn, String name, JsonNode input, String status) {}

    private final ServiceCalls calls;
    private final Clock clock;
    private final Map<String, Machine> machines = new ConcurrentHashMap<>();
    private final Map<String, ExecutionRecord> executions = new LinkedHashMap<>();
    /** Executions run outside StartExecution, by ARN, and what stops each while it runs. */
    private final Map<String, ExecutionRecord> outside = new LinkedHashMap<>();

    private final Map<String, Runnable> stops = new LinkedHashMap<>();

    public SimulatedStepFunctions(CallLog calls, Clock clock, FaultPlan faults, Authorizer iam) {
        this.clock = clock;
        this.calls = new ServiceCalls(AwsService.STATES, calls, faults, iam, SimulatedStepFunctions::permissions);
    }

    /** Step Functions acts on the state machine or the execution (https://docs.aws.amazon.com/service-authorization/latest/reference/list_awsstepfunctions.html). */
    private static List<IamRequest> permissions(String operation, SdkRequest request) {
        return switch (request) {
            case StartExecutionRequest r -> List.of(IamRequest.of("states:StartExecution", r.stateMachineArn()));
            case DescribeExecutionRequest r -> List.of(IamRequest.of("states:DescribeExecution", r.executionArn()));
            case StopExecutionRequest r -> List.of(IamRequest.of("states:StopExecution", r.executionArn()));
            default -> Permissions.unmapped(operation);
        };
    }

    /** The ARN of a state machine of the simulated account. */
    public static String stateMachineArn(String name) {
        return "arn:aws:states:" + AwsService.REGION + ":" + AwsService.ACCOUNT + ":stateMachine:" + name;
    }

    public void register(String stateMachineArn, Machine machine) {
        machines.put(stateMachineArn, machine);
    }

    @Override
    public StartExecutionResponse startExecution(StartExecutionRequest request) {
        return calls.call("StartExecution", request, () -> {
            Machine machine = machines.get(request.stateMachineArn());
            if (machine == null) {
                throw (StateMachineDoesNotExistException) calls.error(
                        StateMachineDoesNotExistException.builder(),
                        400,
                        "StateMachineDoesNotExist",
                        "State Machine Does Not Exist: '" + request.stateMachineArn() + "'");
            }
            String arn = io.trainplane.aws.ExecutionArns.of(request.stateMachineArn(), request.name());
            Instant started = clock.instant();
            synchronized (executions) {
                if (executions.containsKey(arn)) {
                    throw (ExecutionAlreadyExistsException) calls.error(
                            ExecutionAlreadyExistsException.builder(),
                            400,
                            "ExecutionAlreadyExists",
                            "Execution Already Exists: '" + arn + "'");
                }
                JsonNode input = Json.read(request.input() == null ? "{}" : request.input());
                executions.put(
                        arn, new ExecutionRecord(arn, request.stateMachineArn(), request.name(), input, "RUNNING"));
                String status = machine.execute(request.name(), input);
                executions.put(arn, new ExecutionRecord(arn, request.stateMachineArn(), request.name(), input, status));
            }
            return StartExecutionResponse.builder()
                    .executionArn(arn)
                    .startDate(started)
                    .build();
        });
    }

    /** An execution run outside StartExecution starts: RUNNING until {@link #ended}; {@code stop} asks it to stop. */
    public void running(String stateMachineArn, String name, JsonNode input, Runnable stop) {
        String arn = io.trainplane.aws.ExecutionArns.of(stateMachineArn, name);
        synchronized (executions) {
            outside.put(arn, new ExecutionRecord(arn, stateMachineArn, name, input, "RUNNING"));
            stops.put(arn, stop);
        }
    }

    /** That execution ended with {@code status}. */
    public void ended(String stateMachineArn, String name, String status) {
        String arn = io.trainplane.aws.ExecutionArns.of(stateMachineArn, name);
        synchronized (executions) {
            ExecutionRecord e = outside.get(arn);
            outside.put(arn, new ExecutionRecord(arn, stateMachineArn, name, e == null ? null : e.input(), status));
            stops.remove(arn);
        }
    }

    /**
     * Stops a running execution: ABORTED at once, as AWS reports it, while the execution itself
     * stops before its next state; an execution that has ended stays as it ended.
     */
    @Override
    public StopExecutionResponse stopExecution(StopExecutionRequest request) {
        return calls.call("StopExecution", request, () -> {
            Runnable stop;
            synchronized (executions) {
                if (find(request.executionArn()) == null) {
                    throw notFound(request.executionArn());
                }
                stop = stops.remove(request.executionArn());
                ExecutionRecord e = outside.get(request.executionArn());
                if (stop != null) {
                    outside.put(
                            e.executionArn(),
                            new ExecutionRecord(e.executionArn(), e.stateMachineArn(), e.name(), e.input(), "ABORTED"));
                }
            }
            if (stop != null) {
                stop.run();
            }
            return StopExecutionResponse.builder().stopDate(clock.instant()).build();
        });
    }

    private ExecutionRecord find(String arn) {
        ExecutionRecord e = executions.get(arn);
        return e != null ? e : outside.get(arn);
    }

    private ExecutionDoesNotExistException notFound(String arn) {
        return (ExecutionDoesNotExistException) calls.error(
                ExecutionDoesNotExistException.builder(),
                400,
                "ExecutionDoesNotExist",
                "Execution Does Not Exist: '" + arn + "'");
    }

    @Override
    public DescribeExecutionResponse describeExecution(DescribeExecutionRequest request) {
        return calls.call("DescribeExecution", request, () -> {
            ExecutionRecord e;
            synchronized (executions) {
                e = find(request.executionArn());
            }
            if (e == null) {
                throw notFound(request.executionArn());
            }
            return DescribeExecutionResponse.builder()
                    .executionArn(e.executionArn())
                    .stateMachineArn(e.stateMachineArn())
                    .name(e.name())
                    .status(e.status())
                    .input(Json.write(e.input()))
                    .build();
        });
    }

    /** Every execution started here (StartExecution), in order. */
    public List<ExecutionRecord> executions() {
        synchronized (executions) {
            return List.copyOf(executions.values());
        }
    }

    @Override
    public String serviceName() {
        return SERVICE_NAME;
    }

    @Override
    public void close() {}
}
