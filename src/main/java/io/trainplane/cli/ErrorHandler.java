package io.trainplane.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import io.trainplane.spec.InvalidSpecException;
import io.trainplane.spec.SpecProblem;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Maps what went wrong to an exit code and a message a person can act on (stderr), or, with
 * {@code --output json}, to one JSON object on stdout: {@code {"error": {"code", "exitCode",
 * "message", "problems"?}}} (docs/command-line.md, "Errors for scripts").
 */
final class ErrorHandler implements IExecutionExceptionHandler {
    /** Set to anything to print an internal error's stack trace. */
    static final String DEBUG_VARIABLE = "TRAINPLANE_DEBUG";

    private final Map<String, String> environment;

    ErrorHandler(Map<String, String> environment) {
        this.environment = environment;
    }

    /** What went wrong: {@code code} is a stable name for scripts; {@code problems} only for an invalid spec. */
    record Failure(int exitCode, String code, String message, List<SpecProblem> problems) {
        Failure(int exitCode, String code, String message) {
            this(exitCode, code, message, List.of());
        }

        ObjectNode toJson() {
            ObjectNode error =
                    Json.object().put("code", code).put("exitCode", exitCode).put("message", message);
            if (!problems.isEmpty()) {
                ArrayNode list = error.putArray("problems");
                problems.forEach(p -> list.addObject()
                        .put("pointer", p.pointer())
                        .put("message", p.message())
                        .put("hint", p.hint()));
            }
            ObjectNode root = Json.object();
            root.set("error", error);
            return root;
        }
    }

    private boolean debugging() {
        return environment.get(DEBUG_VARIABLE) != null || Logging.debug();
    }

    @Override
    public int handleExecutionException(Exception e, CommandLine cmd, ParseResult parsed) {
        // Main's execution strategy wraps an Error (OutOfMemoryError, StackOverflowError) so it lands here too.
        Throwable thrown = e instanceof CommandLine.ExecutionException && e.getCause() != null ? e.getCause() : e;
        Failure failure = classify(thrown, cmd);
        OutputFormat format = OutputFormat.in(parsed.originalArgs());
        if (format.structured()) {
            cmd.getOut().println(format.write(failure.toJson()));
            cmd.getOut().flush();
        } else if (thrown instanceof InvalidSpecException invalid) {
            printProblems(cmd.getErr(), invalid);
        } else {
            cmd.getErr()
                    .println((failure.exitCode() == Main.INTERNAL_ERROR ? "" : "error: ")
                            + withoutErrorPrefix(failure.message()));
        }
        if (failure.exitCode() == Main.INTERNAL_ERROR && debugging()) {
            thrown.printStackTrace(cmd.getErr());
        }
        cmd.getErr().flush();
        return failure.exitCode();
    }

    private Failure classify(Throwable e, CommandLine cmd) {
        return switch (e) {
            case InvalidSpecException invalid ->
                new Failure(
                        Main.INVALID_INPUT,
                        "InvalidSpec",
                        "the run spec is invalid; nothing was created.",
                        invalid.problems());
            case UserInputException input -> new Failure(Main.INVALID_INPUT, "InvalidInput", "" + input.getMessage());
            case io.trainplane.local.UnreadableStoreException unreadable ->
                new Failure(Main.INVALID_INPUT, "UnreadableStore", "" + unreadable.getMessage());
            case NotFoundException notFound -> new Failure(Main.NOT_FOUND, "NotFound", "" + notFound.getMessage());
            case software.amazon.awssdk.core.exception.SdkException aws
            when AwsCredentials.missing(aws) -> new Failure(Main.AWS_ERROR, "NoCredentials", AwsCredentials.HOW_TO_SET);
            case software.amazon.awssdk.core.exception.SdkException aws ->
                new Failure(Main.AWS_ERROR, "AwsError", "AWS: " + aws.getMessage());
            default -> new Failure(Main.INTERNAL_ERROR, "InternalError", internal(e, cmd));
        };
    }

    /**
     * One line: which command failed, with what, where in Trainplane's code, and how to see the
     * rest; a stack trace only when asked for, since it tells a user nothing they can act on.
     */
    private String internal(Throwable e, CommandLine cmd) {
        String message = e.getMessage() == null
                ? ""
                : ": " + e.getMessage().lines().findFirst().orElse("");
        String where = java.util.Arrays.stream(e.getStackTrace())
                .filter(f -> f.getClassName().startsWith("io.trainplane."))
                .findFirst()
                .map(f -> " at " + f.getClassName().substring(f.getClassName().lastIndexOf('.') + 1) + "."
                        + f.getMethodName() + "(" + f.getFileName() + ":" + f.getLineNumber() + ")")
                .orElse("");
        return "internal error in '" + cmd.getCommandSpec().qualifiedName() + "': "
                + e.getClass().getSimpleName() + message + where + " ("
                + (debugging() ? "stack trace below" : DEBUG_VARIABLE + "=1 prints the stack trace")
                + "; please report it)";
    }

    int onParameterError(ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        String help = "see '" + cmd.getCommandSpec().qualifiedName() + " --help'";
        OutputFormat format = OutputFormat.in(List.of(args));
        String message = ArgumentOrder.specBeforeCommand(cmd, args)
                .or(() -> ArgumentOrder.commandMeant(e))
                .orElse(e.getMessage());
        if (format.structured()) {
            Failure failure = new Failure(Main.INVALID_INPUT, "InvalidArguments", message + " (" + help + ")");
            cmd.getOut().println(format.write(failure.toJson()));
            cmd.getOut().flush();
        } else {
            // The synopsis shows what this command takes (cancel: --stack, --local or --store, no --table).
            cmd.getErr().println("error: " + withoutErrorPrefix(message));
            cmd.getErr()
                    .print(cmd.getHelp().synopsisHeading()
                            + cmd.getHelp().synopsis(cmd.getHelp().synopsisHeadingLength()));
            cmd.getErr().println("(" + help + ")");
        }
        return Main.INVALID_INPUT;
    }

    /** A message that starts with its own "Error:" (a library's) would print as "error: Error: ...". */
    static String withoutErrorPrefix(String message) {
        return message == null ? "" : message.replaceFirst("^(?i)error:\\s*", "");
    }

    static void printProblems(PrintWriter err, InvalidSpecException invalid) {
        err.println("error: the run spec is invalid; nothing was created.");
        for (SpecProblem p : invalid.problems()) {
            err.println("  " + (p.pointer().isEmpty() ? "(document)" : p.pointer()) + ": " + p.message());
            if (p.hint() != null && !p.hint().isBlank()) {
                err.println("      hint: " + p.hint());
            }
        }
    }
}
