package io.trainplane.runs;

import java.util.Objects;

/**
 * A resource still there after the run's cleanup gave up, named as the account's inventory names
 * it: {@code kind} ({@code efs:file-system}, {@code eks:nodegroup}, {@code kubernetes:Namespace})
 * and {@code id} ({@code fs-0a1b…}, {@code <cluster>/<nodegroup>}, {@code <namespace>/<name>}).
 * {@code removedBy} says what removes it: {@value #JANITOR} (the scheduled janitor finds the run's
 * tagged resources and cleans up everything the record lists; the cleanup command does it now) or
 * {@value #COMMAND} (nothing automatic: only the cleanup command).
 */
public record Leftover(String kind, String id, String removedBy) {
    public static final String JANITOR = "janitor";
    public static final String COMMAND = "command";

    public Leftover {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(id, "id");
        if (!JANITOR.equals(removedBy) && !COMMAND.equals(removedBy)) {
            throw new IllegalArgumentException("removedBy is " + JANITOR + " or " + COMMAND + ", not " + removedBy);
        }
    }

    /** {@code efs:file-system/fs-…}: {@code kind/id}, the reference the inventory and the events use. */
    public static Leftover of(String ref, String removedBy) {
        int slash = ref.indexOf('/');
        if (slash <= 0 || slash == ref.length() - 1) {
            throw new IllegalArgumentException("a resource reference is kind/id, not " + ref);
        }
        return new Leftover(ref.substring(0, slash), ref.substring(slash + 1), removedBy);
    }

    public String ref() {
        return kind + "/" + id;
    }
}
