package io.trainplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "validate",
        mixinStandardHelpOptions = true,
        description = "Check a run spec against the schema; print it with its defaults. Creates nothing.")
final class ValidateCommand extends ClientsCommand implements Callable<Integer> {
    @Spec
    CommandSpec command;

    @Mixin
    SpecInput spec;

    @Option(names = "--output", defaultValue = "text", paramLabel = "FORMAT", description = OutputFormat.HELP)
    OutputFormat output;

    @Override
    public Integer call() {
        String region = io.trainplane.aws.RunPrices.regionOf(clients.environment());
        JsonNode normalized = spec.normalized(today(), region);
        List<String> warnings = SpecWarnings.of(
                io.trainplane.spec.RunSpecs.fromNormalized(normalized),
                today(),
                io.trainplane.aws.RunPrices.forRegion(region));
        // A local directory as the code is checked as a run would pack it (the package itself is the run's).
        CodeShipment.pack(spec, normalized.deepCopy(), SpecInput.runIdOf(normalized), CodeShipment.PLANNED_BUCKET);
        if (output.structured()) {
            var result = Json.object().put("valid", true);
            warnings.forEach(result.putArray("warnings")::add);
            result.set("spec", normalized);
            out().println(output.write(result));
        } else {
            warnings.forEach(w -> command.commandLine().getErr().println("warning: " + w));
            out().println("valid. With its defaults the spec reads:");
            out().println(normalized.toPrettyString());
        }
        return Main.SUCCEEDED;
    }

    private java.io.PrintWriter out() {
        return command.commandLine().getOut();
    }
}
