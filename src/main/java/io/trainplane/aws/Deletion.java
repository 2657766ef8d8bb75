package io.trainplane.aws;

/** What asking EKS to delete a resource did. */
public sealed interface Deletion {
    /** EKS accepted the deletion (or was already deleting): poll the state until Gone. */
    record Deleting() implements Deletion {}

    /** Nothing to delete. */
    record Gone() implements Deletion {}

    /** EKS refused because something still depends on the resource; {@code reason} says what. */
    record Blocked(String reason) implements Deletion {}
}
