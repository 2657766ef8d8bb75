package io.trainplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.spec.RunSpecs;
import io.trainplane.workflow.Json;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.services.sfn.model.ExecutionAlreadyExistsException;
import software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.StartExecutionResponse;

@Command(name = "start", mixinStandardHelpOptions = true,
        description = "Validate a run spec and start the run on a deployed stack (one execution of its TrainingPipeline, named after the runId).")
final class StartCommand implements Callable<Integer>, NeedsClients {
    @Spec
    CommandSpec command;

    @Mixin
    SpecInput spec;

    @Option(names = "--stack", required = true, paramLabel = "NAME", description = "the deployed Trainplane stack")
    String stack;

    @Option(names = "--output", defaultValue = "text", description = "text or json")
    OutputFormat output;

    private CliClients clients;

    @Override
    public void clients(CliClients clients) {
        this.clients = clients;
    }

    @Override
    public Integer call() {
        JsonNode normalized = spec.normalized();
        String runId = SpecInput.runIdOf(normalized);
        RunSpecs.fromNormalized(normalized).withRunId(runId);
        ObjectNode input = ((ObjectNode) normalized.deepCopy()).put("runId", runId);
        String pipeline = StackOutputs.output(clients.cloudFormation(), stack, StackOutputs.TRAINING_PIPELINE);
        if (exists(CancelCommand.executionArn(pipeline, runId))) {
            throw alreadyExists(runId);
        }
        StartExecutionResponse started;
        try {
            started = clients.sfn().startExecution(r -> r.stateMachineArn(pipeline).name(runId).input(Json.write(input)));
        } catch (ExecutionAlreadyExistsException e) {
            throw alreadyExists(runId);
        }
        String url = consoleUrl(started.executionArn());
        PrintWriter out = command.commandLine().getOut();
        if (output == OutputFormat.json) {
            out.println(Json.write(Json.object().put("runId", runId).put("executionArn", started.executionArn())
                    .put("startDate", String.valueOf(started.startDate())).put("consoleUrl", url)));
        } else {
            out.println("started run " + runId);
            out.println("execution: " + started.executionArn());
            out.println("console:   " + url);
            out.println("follow it: trainplane status " + runId + " --stack " + stack);
        }
        return Main.SUCCEEDED;
    }

    private boolean exists(String executionArn) {
        try {
            clients.sfn().describeExecution(r -> r.executionArn(executionArn));
            return true;
        } catch (ExecutionDoesNotExistException e) {
            return false;
        }
    }

    private UserInputException alreadyExists(String runId) {
        return new UserInputException("run " + runId + " already exists on stack " + stack
                + " (an execution name is never reused): give the spec another runId");
    }

    /** The Step Functions console page of an execution, in the execution's own region. */
    static String consoleUrl(String executionArn) {
        String region = executionArn.split(":")[3];
        return "https://" + region + ".console.aws.amazon.com/states/home?region=" + region
                + "#/v2/executions/details/" + executionArn;
    }
}
