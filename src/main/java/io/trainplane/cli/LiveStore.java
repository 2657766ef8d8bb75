package io.trainplane.cli;

import io.trainplane.local.LocalCloud;
import io.trainplane.local.LocalStore;
import io.trainplane.local.PodLogs;
import io.trainplane.local.asl.HistoryEvent;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The local store as a local run writes it: while the run goes (when its phase changes, and at
 * most every {@value #EVERY_MILLIS} ms besides), so {@code list}, {@code status}, {@code watch}
 * and {@code logs --follow} with {@code --local} see it from another terminal, as they see a
 * deployed run; and once more at the end. The pods' logs are written before the record: a reader
 * that finds the run ended finds its last logs too. The run holds a lock on {@code running/RUN.lock} in the store while it goes: a second
 * local run of the same runId is refused, as Step Functions refuses an execution name in use.
 */
final class LiveStore implements AutoCloseable {
    /** The Tasks after which the run record's phase has changed (RunPhase): the store is written then. */
    static final Set<String> PHASE_TASKS =
            Set.of("StartRun", "CreateCluster", "StartDataJob", "StartTraining", "StartEvaluation", "Teardown");

    static final long EVERY_MILLIS = 3_000;

    private final Path dir;
    private final FileChannel lockFile;
    private final FileLock lock;
    private final PrintWriter err;
    private long lastSave;
    private boolean warned;

    private LiveStore(Path dir, FileChannel lockFile, FileLock lock, PrintWriter err) {
        this.dir = dir;
        this.lockFile = lockFile;
        this.lock = lock;
        this.err = err;
    }

    /**
     * The store in {@code dir} ({@code storeOption} names it on a command line: --local or --store
     * DIR), checked readable, with {@code runId} claimed for this run; a run
     * of the same id going on in another process is the user's to wait for or rename (exit 2).
     */
    static LiveStore claim(Path dir, String runId, String storeOption, PrintWriter err) {
        LocalStore.open(dir).close();
        Path file = lockPath(dir, runId);
        FileChannel channel = null;
        try {
            Files.createDirectories(file.getParent());
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                channel.close();
                throw inUse(dir, runId, storeOption);
            }
            return new LiveStore(dir, channel, lock, err);
        } catch (java.nio.channels.OverlappingFileLockException e) {
            close(channel);
            throw inUse(dir, runId, storeOption);
        } catch (IOException e) {
            close(channel);
            throw new UncheckedIOException("cannot claim run " + runId + " in the local store " + dir, e);
        }
    }

    /** Whether a local run of {@code runId} is going on now, in this process or another: its lock is held. */
    static boolean running(Path dir, String runId) {
        Path file = lockPath(dir, runId);
        if (!Files.isRegularFile(file)) {
            return false;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            FileLock held = channel.tryLock();
            if (held == null) {
                return true;
            }
            held.release();
            return false;
        } catch (java.nio.channels.OverlappingFileLockException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static Path lockPath(Path dir, String runId) {
        return dir.resolve("running").resolve(runId + ".lock");
    }

    private static UserInputException inUse(Path dir, String runId, String storeOption) {
        return new UserInputException("ExecutionAlreadyExists: a local run '" + runId + "' is going on (store " + dir
                + "): follow it with 'trainplane watch " + runId + " " + storeOption
                + "', or give this run another runId"
                + " (the spec's \"runId\", or leave it out for a new one)");
    }

    /** After each history event: writes the store (and the pods' logs) when the run's phase has changed, or a while after the last write. */
    void onEvent(HistoryEvent event, DynamoDbClient from, PodLogs logs) {
        boolean phase = "TaskSucceeded".equals(event.type()) && PHASE_TASKS.contains(event.stateName());
        boolean due = "TaskSucceeded".equals(event.type()) && System.nanoTime() / 1_000_000 - lastSave >= EVERY_MILLIS;
        if (phase || due) {
            try {
                logs.capture();
                write(from, logs);
            } catch (RuntimeException e) {
                if (!warned) {
                    err.println("warning: the local store " + dir + " could not be written while the run goes ("
                            + e.getMessage() + "); it is written again at the end");
                    warned = true;
                }
            }
        }
    }

    /** Copies the pods' logs, then the run's record and timeline, into the store. */
    void write(DynamoDbClient from, PodLogs logs) {
        logs.save(dir);
        try (LocalStore local = LocalStore.open(dir)) {
            local.save(from, LocalCloud.tableName());
        }
        lastSave = System.nanoTime() / 1_000_000;
    }

    Path dir() {
        return dir;
    }

    @Override
    public void close() {
        // The file stays (deleting it would race with a run opening it): the next run of the id locks it again.
        try {
            lock.release();
        } catch (IOException e) {
            // The lock goes with the channel.
        } finally {
            close(lockFile);
        }
    }

    private static void close(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing to do
            }
        }
    }
}
