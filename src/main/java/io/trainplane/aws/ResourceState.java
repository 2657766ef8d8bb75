package io.trainplane.aws;

/**
 * Where a cloud resource of a run stands, as every lifecycle reports it: each provider's own
 * states (EKS's CREATING/ACTIVE/…, EFS's creating/available/…) map onto these five, so the
 * check steps decide the same way for every resource.
 */
public sealed interface ResourceState {
    /** Being created or updated; {@code detail} says what the provider reports. */
    record Creating(String detail) implements ResourceState {}

    /** Usable. */
    record Ready() implements ResourceState {}

    /** Will not become usable by waiting; {@code reason} says what happened and what to do. */
    record Failed(String reason) implements ResourceState {}

    /** Being deleted. */
    record Deleting() implements ResourceState {}

    /** Does not exist (never created, or deleted). */
    record Gone() implements ResourceState {}
}
