package io.trainplane.aws;

import java.util.function.Function;

/**
 * What every kind of resource a run makes answers, whatever service holds it. Its create is the
 * kind's own call (its inputs differ: names, tags, spec, network) and returns at once with what
 * names the resource in the run record, {@code H}; from then on {@link #state} says where it
 * stands and {@link #delete} asks for it to go, with the same result types for every kind, so the
 * check steps and the teardown decide the same way for all. Each looks once and returns; each may
 * be called again: a resource that does not exist is {@code Gone}.
 *
 * @param <H> what names one resource of the kind in the run record (an id, a name, a request token)
 */
public interface ResourceLifecycle<H> {
    /** Where the resource stands now; {@link ResourceState.Gone} when it does not exist. */
    ResourceState state(H resource);

    /**
     * Asks for the resource to be deleted, or reports on its deletion: {@link Deletion.Gone} once
     * nothing is left, {@link Deletion.Deleting} while it goes, {@link Deletion.Blocked} when it
     * cannot go yet. Throws what the service refused for good (an IAM denial, say).
     */
    Deletion delete(H resource);

    /** A lifecycle from its two calls (for a class that serves several kinds, like EFS's file system and mount targets). */
    static <H> ResourceLifecycle<H> of(Function<H, ResourceState> state, Function<H, Deletion> delete) {
        return new ResourceLifecycle<>() {
            @Override
            public ResourceState state(H resource) {
                return state.apply(resource);
            }

            @Override
            public Deletion delete(H resource) {
                return delete.apply(resource);
            }
        };
    }
}
