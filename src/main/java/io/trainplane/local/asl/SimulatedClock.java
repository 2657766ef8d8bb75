package io.trainplane.local.asl;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The clock of local mode. Simulated time moves only when something waits (a Wait state, a retry
 * interval), so a run that takes hours on AWS takes seconds here and gives the same timeline.
 */
public final class SimulatedClock extends Clock {
    private final AtomicReference<Instant> now;

    public SimulatedClock(Instant start) {
        this.now = new AtomicReference<>(start);
    }

    public void advance(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("time cannot go back: " + duration);
        }
        now.updateAndGet(t -> t.plus(duration));
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        if (!ZoneOffset.UTC.equals(zone)) {
            throw new UnsupportedOperationException("the simulated clock is UTC only");
        }
        return this;
    }
}
