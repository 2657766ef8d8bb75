package io.trainplane.aws.eks;

/** What a create call did: made the resource, or found the run's own one already there. */
public enum Creation {
    CREATED,
    ADOPTED
}
