package io.trainplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import io.trainplane.spec.RunSpecs;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import software.amazon.awssdk.services.sfn.model.ExecutionAlreadyExistsException;
import software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.StartExecutionResponse;

@Command(
        name = "start",
        mixinStandardHelpOptions = true,
        description =
                "Validate a run spec and start the run on a deployed stack (one execution of its TrainingPipeline, named after the runId). With --local or --store, the run executes here as 'trainplane run' does (to its end) and is kept in the local store.")
final class StartCommand extends ClientsCommand implements Callable<Integer> {
    @Spec
    CommandSpec command;

    @Mixin
    SpecInput spec;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Target target;

    static final class Target {
        @Option(names = "--stack", paramLabel = "NAME", description = "the deployed Trainplane stack")
        String stack;

        @Option(
                names = "--local",
                description = "run it locally into the local store ($TRAINPLANE_HOME, else .trainplane/)")
        boolean local;

        @Option(names = "--store", paramLabel = "DIR", description = "run it locally into the local store in DIR")
        Path store;
    }

    @Option(names = "--output", defaultValue = "text", paramLabel = "FORMAT", description = OutputFormat.HELP)
    OutputFormat output;

    @Override
    public Integer call() {
        if (target.stack == null) {
            return startLocally();
        }
        String stack = target.stack;
        JsonNode normalized = spec.normalized(today());
        String runId = SpecInput.runIdOf(normalized);
        RunSpecs.fromNormalized(normalized).withRunId(runId);
        ObjectNode input = ((ObjectNode) normalized.deepCopy()).put("runId", runId);
        String pipeline = StackOutputs.output(clients.cloudFormation(), stack, StackOutputs.TRAINING_PIPELINE);
        if (exists(CancelCommand.executionArn(pipeline, runId))) {
            throw alreadyExists(runId);
        }
        StartExecutionResponse started;
        try {
            started = clients.sfn()
                    .startExecution(r -> r.stateMachineArn(pipeline).name(runId).input(Json.write(input)));
        } catch (ExecutionAlreadyExistsException e) {
            throw alreadyExists(runId);
        }
        String url = consoleUrl(started.executionArn());
        PrintWriter out = command.commandLine().getOut();
        if (output == OutputFormat.json) {
            out.println(Json.write(Json.object()
                    .put("runId", runId)
                    .put("executionArn", started.executionArn())
                    .put("startDate", String.valueOf(started.startDate()))
                    .put("consoleUrl", url)));
        } else {
            out.println("started run " + runId);
            out.println("execution: " + started.executionArn());
            out.println("console:   " + url);
            out.println("follow it: trainplane watch " + runId + " --stack " + stack);
        }
        return Main.SUCCEEDED;
    }

    /**
     * A local run has no service to hand the execution to: it runs in this process, to its end,
     * exactly as {@code trainplane run} runs it (same validation, summary, store and exit code).
     */
    private int startLocally() {
        List<String> args = new ArrayList<>(List.of(spec.path, "--output", output.name()));
        if (target.store != null) {
            args.addAll(List.of("--store", target.store.toString()));
        }
        return command.commandLine().getParent().getSubcommands().get("run").execute(args.toArray(String[]::new));
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
        return new UserInputException("run " + runId + " already exists on stack " + target.stack
                + " (an execution name is never reused): give the spec another runId");
    }

    /** The Step Functions console page of an execution, in the execution's own region. */
    static String consoleUrl(String executionArn) {
        String region = executionArn.split(":")[3];
        return "https://" + region + ".console.aws.amazon.com/states/home?region=" + region + "#/v2/executions/details/"
                + executionArn;
    }
}
