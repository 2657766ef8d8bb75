package io.trainplane.cli;

import io.trainplane.spec.InvalidSpecException;
import io.trainplane.spec.SpecProblem;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/** Maps what went wrong to an exit code and a message a person can act on. */
final class ErrorHandler implements IExecutionExceptionHandler {

    @Override
    public int handleExecutionException(Exception e, CommandLine cmd, ParseResult parsed) {
        PrintWriter err = cmd.getErr();
        if (e instanceof InvalidSpecException invalid) {
            printProblems(err, invalid);
            return Main.INVALID_INPUT;
        }
        if (e instanceof UserInputException input) {
            err.println("error: " + input.getMessage());
            return Main.INVALID_INPUT;
        }
        if (e instanceof NotFoundException notFound) {
            err.println("error: " + notFound.getMessage());
            return Main.NOT_FOUND;
        }
        if (e instanceof software.amazon.awssdk.core.exception.SdkException aws) {
            err.println("error: AWS: " + aws.getMessage());
            return Main.AWS_ERROR;
        }
        err.println("internal error: " + e);
        if (System.getenv("TRAINPLANE_DEBUG") != null) {
            e.printStackTrace(err);
        } else {
            err.println("(set TRAINPLANE_DEBUG=1 for the stack trace)");
        }
        return Main.INTERNAL_ERROR;
    }

    static int onParameterError(ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        cmd.getErr().println("error: " + e.getMessage());
        cmd.getErr().println("(see '" + cmd.getCommandSpec().qualifiedName() + " --help')");
        return Main.INVALID_INPUT;
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
