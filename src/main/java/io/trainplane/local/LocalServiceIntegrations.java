package io.trainplane.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import io.trainplane.local.asl.TaskFailure;
import io.trainplane.local.asl.TaskInvoker;
import io.trainplane.local.iam.Callers;
import io.trainplane.local.iam.StackPrincipals;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.SfnException;

/**
 * The AWS SDK calls a state machine makes itself ({@code arn:aws:states:::aws-sdk:<service>:<action>}),
 * as the machine's role, on the simulated account; every other Resource goes to {@code functions}.
 * Parameters and results are PascalCase, and an error is {@code <Service>.<Name>Exception}
 * (https://docs.aws.amazon.com/step-functions/latest/dg/supported-services-awssdk.html). Only the
 * calls Trainplane's machines make are here.
 */
final class LocalServiceIntegrations {
    static final String PREFIX = "arn:aws:states:::aws-sdk:";

    private LocalServiceIntegrations() {}

    /** {@code functions}, with the SDK calls of state machine {@code machine} answered by {@code cloud}. */
    static TaskInvoker around(TaskInvoker functions, LocalCloud cloud, String machine) {
        var caller = new StackPrincipals(cloud.stack()).stateMachine(machine);
        return (resource, payload, context) -> {
            if (!resource.startsWith(PREFIX)) {
                return functions.invoke(resource, payload, context);
            }
            String call = resource.substring(PREFIX.length());
            try {
                return switch (call) {
                    case "sfn:describeExecution" -> Callers.as(caller, () -> describeExecution(cloud, payload));
                    default ->
                        throw new TaskFailure(
                                "States.Runtime", "the local Step Functions has no AWS SDK integration " + call);
                };
            } catch (SfnException e) {
                String code = e.awsErrorDetails() == null
                        ? "Sfn"
                        : e.awsErrorDetails().errorCode();
                throw new TaskFailure("Sfn." + code + (code.endsWith("Exception") ? "" : "Exception"), e.getMessage());
            }
        };
    }

    private static JsonNode describeExecution(LocalCloud cloud, JsonNode payload) {
        DescribeExecutionResponse e = cloud.stepFunctions()
                .describeExecution(
                        r -> r.executionArn(payload.path("ExecutionArn").asText()));
        ObjectNode out = Json.object()
                .put("ExecutionArn", e.executionArn())
                .put("StateMachineArn", e.stateMachineArn())
                .put("Name", e.name())
                .put("Status", e.statusAsString());
        if (e.input() != null) {
            out.put("Input", e.input());
        }
        return out;
    }
}
