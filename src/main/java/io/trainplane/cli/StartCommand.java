package io.trainplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.aws.RunCeilings;
import io.trainplane.aws.RunPrices;
import io.trainplane.core.Json;
import io.trainplane.runs.CostEstimate;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.CodePackage;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.RunSpecs;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
                "Validate a run spec and start the run on a deployed stack (one execution of its TrainingPipeline, named after the runId), after showing the plan's expected and worst-case cost and asking Proceed? [Y/n] (--yes: without asking). With --local or --store, the run executes here as 'trainplane run' does (to its end) and is kept in the local store.")
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

    @Option(
            names = {"-y", "--yes"},
            description =
                    "start without asking: for scripts (without a terminal, start refuses unless given --yes; --local and --store never ask)")
    boolean yes;

    @Override
    public Integer call() {
        if (target.stack == null) {
            return startLocally();
        }
        String stack = target.stack;
        JsonNode normalized = spec.normalized(today(), clients.region());
        String runId = SpecInput.runIdOf(normalized);
        var outputs = StackOutputs.of(clients.cloudFormation(), stack);
        var code = CodeShipment.pack(
                spec,
                (ObjectNode) normalized,
                runId,
                outputs.getOrDefault(StackOutputs.ARTIFACTS_BUCKET, CodeShipment.PLANNED_BUCKET));
        boolean uploads =
                code.map(c -> c.described().route() == CodePackage.Route.BUCKET).orElse(false);
        if (uploads && !outputs.containsKey(StackOutputs.ARTIFACTS_BUCKET)) {
            throw new UserInputException("stack " + stack + " has no output " + StackOutputs.ARTIFACTS_BUCKET
                    + ", the bucket workload.code " + code.get().packed().root()
                    + " goes to (over the ConfigMap route's limits): is it a Trainplane stack? Update it (sam deploy),"
                    + " or upload the directory yourself and give its s3:// prefix as workload.code");
        }
        RunSpec run = RunSpecs.fromNormalized(normalized).withRunId(runId);
        // StartRun refuses a spec past the stack's ceilings too (and counts the runs going on): here
        // before anything is uploaded or started, with the prices StartRun will see.
        RunCeilings ceilings = RunCeilings.fromParameters(StackOutputs.parameters(clients.cloudFormation(), stack));
        CostEstimate cost = CostEstimate.of(
                run,
                LivePrices.of(
                        run,
                        RunPrices.forRegion(clients.region()),
                        clients,
                        command.commandLine().getErr()),
                today());
        ceilings.require(run, cost.ceilingWorstCase(), 0);
        Double budget = ceilings.budgetOf(run);
        String budgetNote = budget == null
                ? ""
                : String.format(
                        java.util.Locale.ROOT,
                        "; budget $%.2f%s: the training is stopped there",
                        budget,
                        run.budgetUsd() == null ? " (the stack's DefaultRunBudgetUsd)" : "");
        CodePrefixCheck.require(
                run.workload().code(), this::listed, command.commandLine().getErr());
        ObjectNode input = ((ObjectNode) normalized.deepCopy()).put("runId", runId);
        String pipeline = StackOutputs.output(clients.cloudFormation(), stack, StackOutputs.TRAINING_PIPELINE);
        if (exists(CancelCommand.executionArn(pipeline, runId))) {
            throw alreadyExists(runId);
        }
        if (!yes && !confirmed(cost, budgetNote, runId)) {
            command.commandLine().getErr().println("not started: nothing was created");
            return Main.FAILED;
        }
        String table = outputs.get(StackOutputs.RUNS_TABLE);
        code.ifPresent(c -> deliver(c, outputs.get(StackOutputs.ARTIFACTS_BUCKET), table));
        StartExecutionResponse started;
        try {
            started = clients.sfn()
                    .startExecution(r -> r.stateMachineArn(pipeline).name(runId).input(Json.write(input)));
        } catch (ExecutionAlreadyExistsException e) {
            throw alreadyExists(runId);
        }
        String url = consoleUrl(started.executionArn());
        PrintWriter out = command.commandLine().getOut();
        if (output.structured()) {
            ObjectNode document = Json.object()
                    .put("runId", runId)
                    .put("executionArn", started.executionArn())
                    .put("startDate", String.valueOf(started.startDate()))
                    .put("consoleUrl", url);
            code.ifPresent(c -> document.set("code", normalized.at("/workload/package")));
            out.println(output.write(document));
        } else {
            out.println("started run " + runId);
            out.println("execution: " + started.executionArn());
            out.println("console:   " + url);
            out.println("follow it: trainplane watch " + runId + " --stack " + stack);
        }
        return Main.SUCCEEDED;
    }

    /** What S3 says of the code's prefix, asked with the caller's credentials. */
    private CodePrefixCheck.Answer listed(io.trainplane.spec.WorkloadCode.S3Prefix prefix) {
        try {
            return clients.s3()
                            .listObjectsV2(r -> r.bucket(prefix.bucket())
                                    .prefix(CodePrefixCheck.key(prefix))
                                    .maxKeys(1))
                            .hasContents()
                    ? CodePrefixCheck.Answer.OBJECTS
                    : CodePrefixCheck.Answer.EMPTY;
        } catch (software.amazon.awssdk.services.s3.model.NoSuchBucketException e) {
            return CodePrefixCheck.Answer.NO_SUCH_BUCKET;
        } catch (software.amazon.awssdk.services.s3.model.S3Exception e) {
            if (e.statusCode() == 403) {
                return CodePrefixCheck.Answer.DENIED;
            }
            throw e;
        }
    }

    /**
     * The packed directory goes where its route takes it before the execution starts, so that a
     * failed upload starts nothing: the ConfigMap route's files beside the run's record in the Runs
     * table, the bucket route's to {@code s3://<ArtifactsBucket>/runs/<runId>/code/}.
     */
    private void deliver(CodeShipment code, String bucket, String table) {
        PrintWriter err = command.commandLine().getErr();
        var store = new RunStore(clients.dynamoDb(), table, java.time.Clock.systemUTC());
        if (code.described().route() != CodePackage.Route.BUCKET) {
            code.deliver(store, (key, bytes) -> {
                throw new IllegalStateException("the ConfigMap route uploads nothing");
            });
            err.println(code.summary());
            return;
        }
        var upload =
                new ArtifactsBucketUpload(clients.s3(), bucket, code.described().sha256());
        code.deliver(store, upload::put);
        List<String> removed = upload.removeOthers(CodeShipment.prefix(code.runId()), code.keys());
        err.println(code.summary() + ", uploaded (sha256 " + code.described().sha256() + "; a rerun of run "
                + code.runId() + " writes the same keys)"
                + (removed.isEmpty() ? "" : "; removed " + removed.size() + " other keys under the prefix"));
        err.flush();
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

    /**
     * Starting a run spends money from the first minute (the control plane, then the nodes), so a
     * person sees what it is expected to cost, what it costs if it runs to maxRunHours, and its
     * budget if it has one, and says yes. Without a person to ask, only {@code --yes} starts it.
     */
    private boolean confirmed(CostEstimate cost, String budgetNote, String runId) {
        String costs = String.format(
                        "expected %s over %.1f h; worst case %s (maxRunHours = %.0f h, then the safety net cleans up)",
                        CostEstimate.totalText(cost.expected()),
                        cost.expectedHours(),
                        CostEstimate.totalText(cost.worstCase()),
                        cost.worstCaseHours())
                + budgetNote;
        Terminal terminal = clients.terminal();
        if (!terminal.interactive()) {
            throw new UserInputException("start spends money (" + costs + ") and there is no terminal to ask:"
                    + " pass --yes to start run " + runId + " without asking");
        }
        PrintWriter err = command.commandLine().getErr();
        err.println("run " + runId + " on stack " + target.stack + ": " + costs);
        err.println("details: trainplane plan " + spec.path);
        err.flush();
        while (true) {
            String answer = terminal.ask("Proceed? [Y/n] ");
            if (answer == null) {
                return false;
            }
            switch (answer.strip().toLowerCase(Locale.ROOT)) {
                case "", "y", "yes" -> {
                    return true;
                }
                case "n", "no" -> {
                    return false;
                }
                default -> err.println("answer y or n");
            }
        }
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
