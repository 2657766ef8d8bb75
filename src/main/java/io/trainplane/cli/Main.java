package io.trainplane.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code trainplane}: validate, plan and run training runs; see README.md and docs/command-line.md. */
@Command(
        name = "trainplane",
        mixinStandardHelpOptions = true,
        version = Main.VERSION,
        description = "Distributed PyTorch training on Amazon EKS from one call.",
        subcommands = {
            ValidateCommand.class,
            PlanCommand.class,
            RunCommand.class,
            JanitorCommand.class,
            StartCommand.class,
            StatusCommand.class,
            WatchCommand.class,
            ListCommand.class,
            LogsCommand.class,
            CancelCommand.class,
            CleanupCommand.class,
            IamCommand.class,
            InitCommand.class
        },
        footer = {
            "",
            "--debug, anywhere on the command line (or TRAINPLANE_DEBUG=1): the libraries' log lines and an internal"
                    + " error's stack trace on stderr, which are otherwise never shown."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the run succeeded (validate/plan: the spec is valid; start/cancel/cleanup/status/list/logs/iam: done)",
            "1:the run failed or was cancelled (run, watch), or start was declined at its prompt",
            "2:invalid input: nothing was created (also: a stack without Trainplane's outputs, a runId already used, a template parameter iam refuses)",
            "3:an internal error",
            "4:not found: no such run, stack or local store (status, watch, logs, cancel, cleanup, list, start)",
            "5:AWS refused or could not be reached (credentials, permissions, network)",
            "130:stopped by Ctrl-C (run: the run was stopped and cleaned up first)"
        })
public final class Main implements Runnable {
    public static final int SUCCEEDED = 0;
    public static final int FAILED = 1;
    public static final int INVALID_INPUT = 2;
    public static final int INTERNAL_ERROR = 3;
    public static final int NOT_FOUND = 4;
    public static final int AWS_ERROR = 5;

    /** What {@code -V}/{@code --version} prints, on every command. */
    static final String VERSION = "trainplane 0.1.0";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        String[] arguments = Logging.configure(args, System.getenv());
        CommandLine cli = commandLine();
        int exit = cli.execute(arguments);
        // picocli's writers flush on println only: a command whose output ends without a newline
        // would lose its tail to System.exit.
        cli.getOut().flush();
        cli.getErr().flush();
        System.exit(exit);
    }

    /** The command line with Trainplane's error handling: user mistakes get a message, never a stack trace. */
    public static CommandLine commandLine() {
        return commandLine(CliClients.standard());
    }

    /** The command line whose store and AWS commands (run, start, status, watch, list, logs, cancel) use {@code clients}. */
    public static CommandLine commandLine(CliClients clients) {
        CommandLine.IFactory defaults = CommandLine.defaultFactory();
        CommandLine.IFactory factory = new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> type) throws Exception {
                K made = defaults.create(type);
                if (made instanceof ClientsCommand needs) {
                    needs.clients(clients);
                }
                return made;
            }
        };
        ErrorHandler errors = new ErrorHandler(clients.environment());
        CommandLine commandLine = new CommandLine(new Main(), factory);
        // Each subcommand takes -V from mixinStandardHelpOptions; without a version of its own it printed nothing.
        commandLine.getSubcommands().values().forEach(sub -> sub.getCommandSpec()
                .version(VERSION));
        return commandLine
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionStrategy(Main::executeReportingErrors)
                .setExecutionExceptionHandler(errors)
                .setParameterExceptionHandler(errors::onParameterError);
    }

    /**
     * Runs the command; an Error (OutOfMemoryError, StackOverflowError), which picocli lets through
     * to a stack trace and exit 1, goes to the ErrorHandler as an internal error (exit 3) instead.
     */
    private static int executeReportingErrors(CommandLine.ParseResult parsed) {
        try {
            return new CommandLine.RunLast().execute(parsed);
        } catch (Error e) {
            CommandLine.ParseResult last = parsed;
            while (last.hasSubcommand()) {
                last = last.subcommand();
            }
            throw new CommandLine.ExecutionException(last.commandSpec().commandLine(), "internal error", e);
        }
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(),
                "name a command: validate, plan, run, janitor, start, status, watch, list, logs, cancel, cleanup, iam or init");
    }
}
