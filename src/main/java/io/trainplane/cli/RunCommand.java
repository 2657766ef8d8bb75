package io.trainplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.local.Faults;
import io.trainplane.local.LocalCloud;
import io.trainplane.local.LocalRun;
import io.trainplane.local.RunReport;
import io.trainplane.local.asl.StateMachine;
import io.trainplane.local.sim.FaultPlan;
import io.trainplane.workflow.Json;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run the real TrainingPipeline state machine locally, with the real handlers,",
                "against a simulated AWS account and Kubernetes cluster. No AWS account needed."})
final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec command;

    @Mixin
    SpecInput spec;

    @Option(names = "--output", defaultValue = "text", description = "text or json (one JSON object on stdout at the end)")
    OutputFormat output;

    @Option(names = "--fail-at", paramLabel = "STATE", description = "make this Task fail every attempt (repeatable)")
    List<String> failAt = List.of();

    @Option(names = "--flaky", paramLabel = "STATE", description = "make this Task's first attempt fail transiently (repeatable)")
    List<String> flaky = List.of();

    @Option(names = "--fault", paramLabel = "SERVICE:OPERATION",
            description = "the simulated AWS refuses every call of this operation, e.g. eks:CreateNodegroup (repeatable)")
    List<String> awsFailures = List.of();

    @Option(names = "--throttle", paramLabel = "SERVICE:OPERATION",
            description = "the first call of this operation gets a ThrottlingException, e.g. efs:CreateMountTarget (repeatable)")
    List<String> awsThrottles = List.of();

    @Option(names = "--abort-at", paramLabel = "STATE",
            description = "stop the execution when this state is entered, as in the console; the safety net cleans up")
    String abortAt;

    @Override
    public Integer call() {
        JsonNode normalized = spec.normalized();
        checkStateNames();
        String runId = SpecInput.runIdOf(normalized);
        Faults faults = faults();
        RunReport report;
        try (LocalCloud cloud = new LocalCloud()) {
            Progress progress = new Progress(command.commandLine().getErr(), cloud.clock());
            report = new LocalRun(cloud, faults, progress).abortingAt(abortAt).execute(normalized, runId);
            progress.finish(report);
        }
        if (output == OutputFormat.json) {
            out().println(Json.write(report));
        } else {
            TextReport.print(out(), report);
        }
        return report.succeeded() ? Main.SUCCEEDED : Main.FAILED;
    }

    /** The faults asked for; a malformed or unknown AWS operation is invalid input. */
    private Faults faults() {
        try {
            FaultPlan check = new FaultPlan();
            awsFailures.forEach(check::fail);
            awsThrottles.forEach(check::throttle);
            return new Faults(Set.copyOf(failAt), Set.copyOf(flaky), Set.copyOf(awsFailures), Set.copyOf(awsThrottles));
        } catch (IllegalArgumentException e) {
            throw new UserInputException(e.getMessage());
        }
    }

    private void checkStateNames() {
        Set<String> names = StateMachine.parse(LocalRun.definition(LocalRun.PIPELINE), placeholders()).stateNames();
        Set<String> asked = new LinkedHashSet<>(failAt);
        asked.addAll(flaky);
        if (abortAt != null) {
            asked.add(abortAt);
        }
        for (String state : asked) {
            if (!names.contains(state)) {
                throw new UserInputException("the pipeline has no state named '" + state + "'; states: "
                        + String.join(", ", names));
            }
        }
    }

    private static java.util.Map<String, String> placeholders() {
        var map = new java.util.HashMap<String, String>();
        io.trainplane.functions.Functions.all().keySet().forEach(n -> map.put(n + "FunctionArn", "arn:placeholder:" + n));
        return map;
    }

    private java.io.PrintWriter out() {
        return command.commandLine().getOut();
    }
}
