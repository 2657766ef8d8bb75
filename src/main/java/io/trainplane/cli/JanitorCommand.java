package io.trainplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import io.trainplane.local.LocalCloud;
import io.trainplane.local.LocalJanitor;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(
        name = "janitor",
        mixinStandardHelpOptions = true,
        description =
                "Run one janitor sweep locally, against a simulated AWS account: resources tagged trainplane:run-id, trainplane:stack=trainplane (local mode's stack) and trainplane:stack-id (its deployment) whose run is finished, unknown or past its maxRunHours are cleaned up; another stack's are counted in otherStacks; what carries the stack's name but not its deployment, and file systems of runs without a record, are listed in unaccountable and left alone. Prints the sweep's report (what the Orphans Cleaned event carries) as JSON.")
final class JanitorCommand extends ClientsCommand implements Callable<Integer> {
    @Spec
    CommandSpec command;

    @Override
    public Integer call() {
        JsonNode report;
        try (LocalCloud cloud = new LocalCloud(clients.clock().instant())) {
            report = LocalJanitor.sweep(cloud);
        }
        command.commandLine().getOut().println(Json.write(report));
        return Main.SUCCEEDED;
    }
}
