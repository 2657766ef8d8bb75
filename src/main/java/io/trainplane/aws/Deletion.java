package io.trainplane.aws;

import java.util.List;

/** What asking to delete a resource did ({@link ResourceLifecycle#delete}). */
public sealed interface Deletion {
    /**
     * The service accepted the deletion (or was already deleting): ask again until Gone.
     * {@code stillThere} names the parts not gone yet, as the account's inventory names them, when
     * the lifecycle knows them (the objects of a namespace); empty otherwise.
     */
    record Deleting(List<String> stillThere) implements Deletion {
        public Deleting {
            stillThere = List.copyOf(stillThere);
        }

        public Deleting() {
            this(List.of());
        }
    }

    /** Nothing to delete. */
    record Gone() implements Deletion {}

    /** Refused for now because something still depends on the resource, or it is still being made; {@code reason} says what. */
    record Blocked(String reason) implements Deletion {}
}
