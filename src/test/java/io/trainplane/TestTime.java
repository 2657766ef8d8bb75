package io.trainplane;

import io.trainplane.spec.KubernetesVersions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;

/**
 * The time of the tests: every simulated account, command line and rule a test runs starts at one
 * fixed instant, so that no test depends on the day it runs (EKS's calendar, support dates and
 * prices are judged on this day, whatever the machine's clock says).
 */
public final class TestTime {
    /** When every test's clock starts: a day on which EKS supports 1.32 to 1.36 (1.31's extended support ended the day before). */
    public static final Instant START = Instant.parse("2026-11-27T08:00:00Z");

    private TestTime() {}

    /** The UTC day of {@link #START}. */
    public static LocalDate day() {
        return KubernetesVersions.day(START);
    }

    /** A clock that starts at {@link #START} when asked for and ticks with the machine's from there. */
    public static Clock clock() {
        return Clock.offset(Clock.systemUTC(), Duration.between(Instant.now(), START));
    }

    /** The Kubernetes version a cluster created on {@link #day()} gets by default: the newest in standard support. */
    public static String kubernetesVersion() {
        return KubernetesVersions.defaultVersion(day()).orElseThrow();
    }
}
