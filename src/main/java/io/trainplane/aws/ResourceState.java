package io.trainplane.aws;

/**
 * Where a cloud resource stands, as the workflow's check steps see it: the provider's many
 * lifecycle states mapped to these five.
 */
public sealed interface ResourceState {
    /** Being created; {@code detail} says what is still awaited. */
    record Creating(String detail) implements ResourceState {}

    /** Usable. */
    record Ready() implements ResourceState {}

    /** Will not become usable; {@code reason} says why, for the run record. */
    record Failed(String reason) implements ResourceState {}

    /** Being deleted. */
    record Deleting() implements ResourceState {}

    /** Does not exist (never created, or deleted). */
    record Gone() implements ResourceState {}
}
