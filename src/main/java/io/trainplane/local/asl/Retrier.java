package io.trainplane.local.asl;

import java.time.Duration;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * One element of a Task's Retry: which errors it handles and how often and how long to wait.
 *
 * @param maxDelaySeconds the cap on the computed interval, or null for none
 */
record Retrier(
        List<String> errorEquals,
        int intervalSeconds,
        int maxAttempts,
        double backoffRate,
        Integer maxDelaySeconds,
        JitterStrategy jitterStrategy) {
    enum JitterStrategy {
        FULL,
        NONE
    }

    static final int DEFAULT_INTERVAL_SECONDS = 1;
    static final int DEFAULT_MAX_ATTEMPTS = 3;
    static final double DEFAULT_BACKOFF_RATE = 2.0;

    Retrier {
        errorEquals = List.copyOf(errorEquals);
    }

    boolean matches(String error) {
        return ErrorNames.matches(errorEquals, error);
    }

    /**
     * The wait before the retry that follows {@code retriesSoFar} retries by this retrier:
     * IntervalSeconds × BackoffRate^retriesSoFar, capped by MaxDelaySeconds, and with FULL jitter
     * a uniformly random share of that (from 0 up to it).
     */
    Duration delay(int retriesSoFar, RandomGenerator random) {
        double seconds = intervalSeconds * Math.pow(backoffRate, retriesSoFar);
        if (maxDelaySeconds != null) {
            seconds = Math.min(seconds, maxDelaySeconds);
        }
        if (jitterStrategy == JitterStrategy.FULL) {
            seconds = random.nextDouble() * seconds;
        }
        return Duration.ofMillis(Math.round(Math.min(seconds, 1e12) * 1000));
    }
}
