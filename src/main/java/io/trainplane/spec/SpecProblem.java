package io.trainplane.spec;

import java.util.Objects;

/**
 * One thing wrong with a run spec: where (a JSON pointer into the spec, "" for the whole
 * document), what, and how to fix it.
 */
public record SpecProblem(String pointer, String message, String hint) {
    public SpecProblem {
        Objects.requireNonNull(pointer, "pointer");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(hint, "hint");
    }

    /** {@code /training/workers: must be at most 64 — hint: ...} */
    @Override
    public String toString() {
        return (pointer.isEmpty() ? "(spec)" : pointer) + ": " + message + " — hint: " + hint;
    }
}
