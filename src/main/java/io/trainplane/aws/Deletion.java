package io.trainplane.aws;

/**
 * The outcome of one call to delete a resource. Deletes are idempotent and meant to be called
 * again until {@link Gone}: {@link Deleting} means the provider is working on it; {@link Blocked}
 * means it cannot start yet because something else must go first (the reason says what).
 */
public sealed interface Deletion {
    record Deleting() implements Deletion {}

    record Gone() implements Deletion {}

    record Blocked(String reason) implements Deletion {}
}
