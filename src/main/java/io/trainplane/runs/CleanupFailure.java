package io.trainplane.runs;

import java.util.List;
import java.util.Objects;

/**
 * Why the run's cleanup gave up ({@code error}, {@code cause}), what it left behind, and the
 * command that deletes it now. Part of the run's {@link RunError}; cleared when a later cleanup
 * (the safety net's, the janitor's, the command's) finds nothing left.
 */
public record CleanupFailure(String error, String cause, List<Leftover> leftBehind, String command) {
    /** Cut to keep the record far below DynamoDB's 400 KB item limit. */
    public static final int MAX_CAUSE = 2048;

    public CleanupFailure {
        leftBehind = List.copyOf(Objects.requireNonNull(leftBehind, "leftBehind"));
        if (cause != null && cause.length() > MAX_CAUSE) {
            cause = cause.substring(0, MAX_CAUSE) + "…";
        }
    }

    /** The references of what is left ({@code efs:file-system/fs-…}), in order. */
    public List<String> refs() {
        return leftBehind.stream().map(Leftover::ref).toList();
    }

    /** Whether the janitor removes everything left (else only the command does). */
    public boolean janitorRemovesAll() {
        return leftBehind.stream().allMatch(l -> Leftover.JANITOR.equals(l.removedBy()));
    }

    /** One sentence for people: what is left and what removes it. */
    public String sentence() {
        if (leftBehind.isEmpty()) {
            return "Cleanup gave up (" + error + ") but left nothing behind.";
        }
        return "Cleanup gave up (" + error + "); left behind: " + String.join(", ", refs()) + ". "
                + (janitorRemovesAll()
                        ? "The janitor deletes " + them() + " on its next sweep (hourly by default); to delete "
                                + them() + " now: "
                        : "Nothing deletes " + them()
                                + " automatically (the janitor looks for tagged EKS clusters and EFS file "
                                + "systems only); to delete " + them() + ": ")
                + command;
    }

    private String them() {
        return leftBehind.size() == 1 ? "it" : "them";
    }
}
