package io.trainplane.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code trainplane}: validate, plan and run training runs; see README.md. */
@Command(name = "trainplane",
        mixinStandardHelpOptions = true,
        version = "trainplane 0.1.0",
        description = "Distributed PyTorch training on Amazon EKS from one call.",
        subcommands = {ValidateCommand.class, PlanCommand.class, RunCommand.class, JanitorCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
                "0:the run succeeded (validate/plan: the spec is valid)",
                "1:the run failed or was cancelled",
                "2:invalid input: nothing was created",
                "3:an internal error"})
public final class Main implements Runnable {
    public static final int SUCCEEDED = 0;
    public static final int FAILED = 1;
    public static final int INVALID_INPUT = 2;
    public static final int INTERNAL_ERROR = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line with Trainplane's error handling: user mistakes get a message, never a stack trace. */
    public static CommandLine commandLine() {
        return new CommandLine(new Main())
                .setExecutionExceptionHandler(new ErrorHandler())
                .setParameterExceptionHandler(ErrorHandler::onParameterError);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a command: validate, plan, run or janitor");
    }
}
