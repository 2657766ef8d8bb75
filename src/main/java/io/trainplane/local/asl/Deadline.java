package io.trainplane.local.asl;

import java.time.Duration;
import java.time.Instant;

/**
 * The execution's TimeoutSeconds against simulated time, and every wait of the execution: waiting
 * advances the simulated clock (never sleeps), and a wait that reaches the deadline stops there.
 */
final class Deadline {
    /** The execution reached its TimeoutSeconds. */
    static final class Reached extends RuntimeException {
        Reached() {
            super("execution timed out", null, false, false);
        }
    }

    private final SimulatedClock clock;
    private final Instant deadline;

    /** @param timeoutSeconds null for no execution timeout */
    Deadline(SimulatedClock clock, Instant start, Integer timeoutSeconds) {
        this.clock = clock;
        this.deadline = timeoutSeconds == null ? null : start.plusSeconds(timeoutSeconds);
    }

    /** @throws Reached when simulated time has reached the deadline */
    void check() {
        if (deadline != null && !clock.instant().isBefore(deadline)) {
            throw new Reached();
        }
    }

    /** Waits until {@code until} in simulated time, or until the deadline if that comes first. */
    void waitUntil(Instant until) {
        Instant now = clock.instant();
        if (deadline != null && !until.isBefore(deadline)) {
            if (deadline.isAfter(now)) {
                clock.advance(Duration.between(now, deadline));
            }
            throw new Reached();
        }
        if (until.isAfter(now)) {
            clock.advance(Duration.between(now, until));
        }
    }

    void waitFor(Duration duration) {
        waitUntil(clock.instant().plus(duration));
    }
}
