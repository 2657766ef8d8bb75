package io.trainplane.local.iam;

import java.util.function.Supplier;

/**
 * Who is calling the simulated account on this thread. On AWS the identity travels with each
 * request's signature; in process, the Lambda runtime of local mode binds the invoked function's
 * caller around the invocation (one invocation per thread at a time, as in a Lambda execution
 * environment), and everything else (the command line, tests) calls as {@link Caller#USER}.
 */
public final class Callers {
    private static final ThreadLocal<Caller> CURRENT = new ThreadLocal<>();

    private Callers() {}

    /** Runs {@code work} as {@code caller}, restoring the previous caller afterwards. */
    public static <T> T as(Caller caller, Supplier<T> work) {
        Caller previous = CURRENT.get();
        CURRENT.set(caller);
        try {
            return work.get();
        } finally {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        }
    }

    /** The caller bound to this thread, or the user. */
    public static Caller current() {
        Caller caller = CURRENT.get();
        return caller != null ? caller : Caller.USER;
    }
}
