package io.trainplane.cli;

import io.trainplane.local.iam.InvalidPolicyException;
import io.trainplane.local.iam.StackTemplate;
import io.trainplane.local.iam.TemplateException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "iam",
        mixinStandardHelpOptions = true,
        description =
                "Print the IAM roles the stack creates and their policies, resolved as local mode authorizes calls"
                        + " against them (account 000000000000, us-east-1, stack trainplane). Creates nothing.")
final class IamCommand implements Callable<Integer> {
    @Spec
    CommandSpec command;

    @Option(names = "--output", defaultValue = "text", paramLabel = "FORMAT", description = OutputFormat.HELP)
    OutputFormat output;

    @Option(
            names = "--parameter",
            paramLabel = "KEY=VALUE",
            mapFallbackValue = "",
            description =
                    "a template parameter's value (repeatable); SubnetIds defaults to the local account's subnets")
    Map<String, String> parameters = new LinkedHashMap<>();

    @Override
    public Integer call() {
        StackTemplate template;
        try {
            template = StackTemplate.local(parameters);
        } catch (TemplateException | InvalidPolicyException e) {
            throw new UserInputException(e.getMessage());
        }
        if (output.structured()) {
            command.commandLine().getOut().println(output.write(IamReport.json(template)));
        } else {
            IamReport.text(template, command.commandLine().getOut());
        }
        return Main.SUCCEEDED;
    }
}
