package io.trainplane.cli;

import io.trainplane.core.Json;
import io.trainplane.runs.RunRecord;
import io.trainplane.workflow.CleanupRecord;
import java.io.PrintWriter;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "cleanup",
        mixinStandardHelpOptions = true,
        description =
                "Delete now what a finished run left behind (its cleanup gave up): starts the stack's Cleanup state machine for the run, which deletes what the run record lists, in dependency order, as the janitor's hourly sweep would.")
final class CleanupCommand extends OneRunCommand implements Callable<Integer> {
    @ArgGroup(exclusive = true, multiplicity = "1")
    TableOptions table;

    static final String CLEANUP_OUTPUT = "CleanupArn";
    /** Step Functions' limit on execution names. */
    static final int MAX_EXECUTION_NAME = 80;

    private static final DateTimeFormatter SECOND =
            DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);

    @Option(names = "--output", defaultValue = "text", paramLabel = "FORMAT", description = OutputFormat.HELP)
    OutputFormat output;

    @Override
    public Integer call() {
        if (table.isLocal()) {
            return cleanupLocal();
        }
        // Without --local or --store, the group required --stack: it names the execution's stack.
        String stack = table.stack();
        String cleanupArn = StackOutputs.output(clients.cloudFormation(), stack, CLEANUP_OUTPUT);
        RunRecord run;
        List<String> left;
        try (TableOptions.Source source = table.open(clients)) {
            run = find(source);
            if (!run.status().isTerminal()) {
                throw new UserInputException(
                        "run " + runId + " is still " + run.status() + ": its own cleanup runs when it ends;"
                                + " to stop it now: trainplane cancel " + runId + " --stack " + stack);
            }
            left = CleanupRecord.leftovers(run);
            if (!left.isEmpty()) {
                // A new cleanup, as the janitor starts one: its own deadline, and its own Run Cleaned Up.
                source.store().update(runId, CleanupRecord::restarted);
            }
        }
        PrintWriter out = command.commandLine().getOut();
        if (left.isEmpty()) {
            print(
                    out,
                    null,
                    left,
                    "run " + runId + " (" + run.status() + ") holds nothing to delete: its record lists nothing left");
            return Main.SUCCEEDED;
        }
        String name = executionName(runId, clients.clock().instant());
        var input = Json.object().put("runId", runId).put("reason", "FAILED");
        String arn = clients.sfn()
                .startExecution(r -> r.stateMachineArn(cleanupArn).name(name).input(Json.write(input)))
                .executionArn();
        print(
                out,
                arn,
                left,
                "started the cleanup of run " + runId + ": " + arn + "\nit deletes: " + String.join(", ", left)
                        + "\nfollow it: trainplane status " + runId + " --stack " + stack);
        return Main.SUCCEEDED;
    }

    /** A local run's account was simulated inside 'trainplane run' and ended with it: nothing is left. */
    private int cleanupLocal() {
        RunRecord run;
        try (TableOptions.Source source = table.open(clients)) {
            run = find(source);
        }
        print(
                command.commandLine().getOut(),
                null,
                List.of(),
                "run " + runId + " ran in the simulated account of"
                        + " 'trainplane run', which ended with it: nothing is left to delete"
                        + (run.error() != null && run.error().cleanup() != null
                                ? " (its record tells what its cleanup would have left on AWS)"
                                : ""));
        return Main.SUCCEEDED;
    }

    private void print(PrintWriter out, String executionArn, List<String> left, String text) {
        if (output.structured()) {
            var json = Json.object()
                    .put("runId", runId)
                    .put("started", executionArn != null)
                    .put("executionArn", executionArn);
            left.forEach(json.putArray("deletes")::add);
            out.println(output.write(json));
        } else {
            out.println(text);
        }
    }

    /** {@code cleanup-<runId>-<yyyyMMddHHmmss>}, within Step Functions' 80 characters; never the safety net's name. */
    static String executionName(String runId, java.time.Instant now) {
        String stamp = SECOND.format(now);
        int room = MAX_EXECUTION_NAME - "cleanup-".length() - 1 - stamp.length();
        return "cleanup-" + (runId.length() > room ? runId.substring(0, room) : runId) + "-" + stamp;
    }
}
