package io.trainplane.local;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Faults of the Lambda service itself, asked for as {@code --fault lambda:<name>}. Each strikes the
 * first invocation of every function, as it would after a quiet fortnight: a SnapStart version not
 * invoked for 14 days is Inactive and initialized again on its next invoke
 * (https://docs.aws.amazon.com/lambda/latest/dg/snapstart-troubleshooting.html), and a first
 * invocation may run out of time after doing its work, which the retry must then not do twice.
 */
public enum LambdaFault {
    /** The invoke is refused: the version is being initialized again. */
    SNAPSTART_NOT_READY(
            "SnapStartNotReady",
            "Lambda.SnapStartNotReadyException",
            "Lambda is initializing your function. It will be ready to invoke once your function state becomes ACTIVE.",
            false),
    /** The invoke is refused: the snapshot was not restored in time. */
    SNAPSTART_TIMEOUT(
            "SnapStartTimeout",
            "Lambda.SnapStartTimeoutException",
            "Lambda couldn't restore the snapshot within the timeout limit.",
            false),
    /** The handler runs, then the invocation reports a timeout, as one past the function's Timeout does. */
    TIMEOUT("Timeout", LocalLambdas.TIMED_OUT, null, true);

    static final String SERVICE = "lambda";

    private final String operation;
    private final String error;
    private final String message;
    private final boolean afterRunning;

    LambdaFault(String operation, String error, String message, boolean afterRunning) {
        this.operation = operation;
        this.error = error;
        this.message = message;
        this.afterRunning = afterRunning;
    }

    String error() {
        return error;
    }

    /** What Lambda says, for a function whose Timeout is {@code timeoutSeconds}. */
    String message(int timeoutSeconds) {
        return message != null ? message : LocalLambdas.timedOut(timeoutSeconds);
    }

    /** Whether the handler has run (and done its work) when the fault strikes. */
    boolean afterRunning() {
        return afterRunning;
    }

    /** Whether {@code serviceOperation} names a Lambda fault ({@code lambda:...}). */
    public static boolean isLambda(String serviceOperation) {
        return serviceOperation.startsWith(SERVICE + ":");
    }

    /** The Lambda faults among {@code serviceOperations}; an unknown {@code lambda:} name is refused, naming the known ones. */
    public static Set<LambdaFault> in(Set<String> serviceOperations) {
        Set<LambdaFault> faults = EnumSet.noneOf(LambdaFault.class);
        for (String named : serviceOperations) {
            if (isLambda(named)) {
                faults.add(of(named.substring(SERVICE.length() + 1))
                        .orElseThrow(() -> new IllegalArgumentException("no Lambda fault '" + named + "': the Lambda"
                                + " faults are "
                                + Arrays.stream(values())
                                        .map(f -> SERVICE + ":" + f.operation)
                                        .collect(Collectors.joining(", ")))));
            }
        }
        return faults;
    }

    private static Optional<LambdaFault> of(String operation) {
        return Arrays.stream(values())
                .filter(f -> f.operation.equals(operation))
                .findFirst();
    }
}
