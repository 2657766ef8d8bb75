package io.trainplane.local;

import java.nio.file.Path;

/** The local store's database file exists and cannot be read (not a database, damaged, locked for good). */
public final class UnreadableStoreException extends RuntimeException {
    private final transient Path file;

    UnreadableStoreException(Path file, Throwable cause) {
        super(
                file + " is not a readable local store (" + firstLine(cause) + "): move it aside, e.g. mv " + file
                        + " " + file + ".unreadable, and the next 'trainplane run' starts a new one (the runs it held"
                        + " are no longer listed)",
                cause);
        this.file = file;
    }

    public Path file() {
        return file;
    }

    private static String firstLine(Throwable cause) {
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.lines().findFirst().orElse("").strip();
    }
}
