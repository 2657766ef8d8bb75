package io.trainplane.cli;

import io.trainplane.local.RunReport;
import java.io.PrintWriter;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import picocli.CommandLine;

/**
 * Ctrl-C during a local run: the run is stopped before its next state, as {@code cancel} stops an
 * execution, and the safety net deletes what it created; the JVM waits for that, the store and the
 * summary before it exits (with 130, as a shell expects of SIGINT). Without this, a Ctrl-C would
 * leave the simulated account with the run's resources and the store without the run.
 */
final class Interruption implements AutoCloseable {
    /** How long a Ctrl-C waits for the cleanup before the JVM exits anyway. */
    private static final long WAIT_MINUTES = 5;

    private final String runId;
    private final CommandLine command;
    private final Thread hook;
    private final AtomicBoolean interrupted = new AtomicBoolean();
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile Runnable stop;

    private Interruption(String runId, CommandLine command) {
        this.runId = runId;
        this.command = command;
        this.hook = new Thread(this::interrupt, "ctrl-c " + runId);
    }

    static Interruption onCtrlC(String runId, CommandLine command) {
        Interruption interruption = new Interruption(runId, command);
        Runtime.getRuntime().addShutdownHook(interruption.hook);
        return interruption;
    }

    /** Runs {@code work}; a Ctrl-C meanwhile calls {@code stop}. */
    <T> T stopping(Runnable stop, Supplier<T> work) {
        this.stop = stop;
        try {
            return work.get();
        } finally {
            this.stop = null;
        }
    }

    /** After the run: if a Ctrl-C stopped it, what it stopped and what the cleanup left. */
    void reportIfStopped(RunReport report) {
        if (!interrupted.get()) {
            return;
        }
        PrintWriter err = command.getErr();
        var remaining = report.resources().remaining();
        err.printf(
                "stopped by Ctrl-C: run %s ended %s after %d state transitions; cleanup deleted what it created (%d"
                        + " resources), %s%n",
                runId,
                report.status(),
                report.stateTransitions(),
                report.resources().created().size(),
                remaining.isEmpty()
                        ? "nothing remains"
                        : "still there: " + String.join(", ", remaining) + " (trainplane janitor sweeps them)");
        err.flush();
    }

    /** The shutdown hook: stop the run, then wait until the command has finished its output. */
    private void interrupt() {
        interrupted.set(true);
        Runnable running = stop;
        PrintWriter err = command.getErr();
        if (running != null) {
            err.println();
            err.println("interrupted (Ctrl-C): stopping run " + runId
                    + " before its next state; the safety net then deletes what it created (wait for it)");
            err.flush();
            running.run();
        }
        try {
            if (!closed.await(WAIT_MINUTES, TimeUnit.MINUTES)) {
                err.println("the cleanup of run " + runId + " did not end within " + WAIT_MINUTES
                        + " minutes: trainplane janitor sweeps what is left");
                err.flush();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        command.getOut().flush();
        command.getErr().flush();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running (Ctrl-C): it waits for this.
        }
        closed.countDown();
    }
}
