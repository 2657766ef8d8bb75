package io.trainplane.cli;

import io.trainplane.core.Json;
import io.trainplane.runs.RunRecord;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

@Command(
        name = "cancel",
        mixinStandardHelpOptions = true,
        description = "Stop a run's execution; the safety net then tears down what the run created.")
final class CancelCommand extends OneRunCommand implements Callable<Integer> {
    @ArgGroup(exclusive = true, multiplicity = "1")
    TableOptions table;

    static final String CAUSE = "cancelled with trainplane cancel";

    @Option(names = "--output", defaultValue = "text", paramLabel = "FORMAT", description = OutputFormat.HELP)
    OutputFormat output;

    @Override
    public Integer call() {
        if (table.isLocal()) {
            return cancelLocal();
        }
        // Without --local or --store, the group required --stack: it names the execution's stack.
        String stack = table.stack();
        String pipeline = StackOutputs.output(clients.cloudFormation(), stack, StackOutputs.TRAINING_PIPELINE);
        String executionArn = executionArn(pipeline, runId);
        DescribeExecutionResponse execution;
        try {
            execution = clients.sfn().describeExecution(r -> r.executionArn(executionArn));
        } catch (ExecutionDoesNotExistException e) {
            throw new NotFoundException("no run " + runId + " on stack " + stack);
        }
        PrintWriter out = command.commandLine().getOut();
        boolean stopped = false;
        if (execution.status() == ExecutionStatus.RUNNING) {
            clients.sfn()
                    .stopExecution(
                            r -> r.executionArn(executionArn).error("Cancelled").cause(CAUSE));
            stopped = true;
        }
        String status = stopped ? "ABORTED" : execution.statusAsString();
        if (output.structured()) {
            out.println(output.write(Json.object()
                    .put("runId", runId)
                    .put("executionArn", executionArn)
                    .put("stopped", stopped)
                    .put("executionStatus", status)));
        } else if (stopped) {
            out.println("stopped run " + runId + " (" + executionArn + ")");
            out.println("the safety net (the stack's Cleanup state machine) now deletes what the run created;");
            out.println("follow it: trainplane status " + runId + " --stack " + stack);
        } else {
            out.println("run " + runId + " is not running (execution " + status + "): nothing to stop");
        }
        return Main.SUCCEEDED;
    }

    /**
     * A local run executes inside {@code trainplane run} and ends with it, so the local store only
     * holds runs that are over: there is nothing to stop, and this says so (exit 0, as for an
     * execution that is no longer running).
     */
    private int cancelLocal() {
        RunRecord run;
        try (TableOptions.Source source = table.open(clients)) {
            run = find(source);
        }
        PrintWriter out = command.commandLine().getOut();
        if (output.structured()) {
            out.println(output.write(Json.object()
                    .put("runId", runId)
                    .put("stopped", false)
                    .put("status", run.status().name())
                    .put("local", true)));
        } else if (run.status().isTerminal()) {
            out.println("run " + runId + " already finished (" + run.status() + "): nothing to stop");
        } else {
            out.println("run " + runId + " is not running (its record stopped at " + run.status()
                    + "): a local run ends with the 'trainplane run' that runs it; nothing to stop");
        }
        return Main.SUCCEEDED;
    }

    /** arn:aws:states:R:A:stateMachine:NAME → arn:aws:states:R:A:execution:NAME:RUN. */
    static String executionArn(String stateMachineArn, String runId) {
        return io.trainplane.aws.ExecutionArns.of(stateMachineArn, runId);
    }
}
