package io.trainplane.local.asl;

/**
 * An error a state reports while the execution runs: a task's failure, a timeout, or an error the
 * interpreter raises itself (States.Runtime, States.NoChoiceMatched, ...). Carries no stack trace:
 * it is control flow, not a bug.
 */
final class StatesError extends RuntimeException {
    private final String error;
    private final String cause;

    StatesError(String error, String cause) {
        super(error + (cause == null ? "" : ": " + cause), null, false, false);
        this.error = error;
        this.cause = cause;
    }

    static StatesError runtime(String cause) {
        return new StatesError(ErrorNames.RUNTIME, cause);
    }

    String error() {
        return error;
    }

    String cause() {
        return cause;
    }

    boolean terminal() {
        return ErrorNames.isTerminal(error);
    }
}
