package io.trainplane.local.sim;

import java.time.Duration;
import java.time.Instant;

/**
 * The life of a simulated resource, as timestamps: it is creating for {@code creating} after
 * {@code createdAt}, then ready; once deletion is asked it is deleting for {@code deleting}, then
 * gone. Nothing runs in the background: every call reads the clock and asks {@link #phase}.
 */
record Lifecycle(Instant createdAt, Duration creating, Instant deleteRequestedAt, Duration deleting) {
    enum Phase {
        CREATING,
        READY,
        DELETING,
        GONE
    }

    static Lifecycle startingAt(Instant now, Duration creating, Duration deleting) {
        return new Lifecycle(now, creating, null, deleting);
    }

    Phase phase(Instant now) {
        if (deleteRequestedAt != null) {
            return now.isBefore(deleteRequestedAt.plus(deleting)) ? Phase.DELETING : Phase.GONE;
        }
        return now.isBefore(readyAt()) ? Phase.CREATING : Phase.READY;
    }

    Instant readyAt() {
        return createdAt.plus(creating);
    }

    boolean isDeleting() {
        return deleteRequestedAt != null;
    }

    /** Deletion asked at {@code now}; asking again changes nothing. */
    Lifecycle delete(Instant now) {
        return deleteRequestedAt != null ? this : new Lifecycle(createdAt, creating, now, deleting);
    }
}
