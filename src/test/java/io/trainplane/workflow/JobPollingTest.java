package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JobPollingTest {
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private static int waitAfter(Duration running, Optional<JobPolling.Progress> progress) {
        return JobPolling.waitSeconds(START.toString(), START.plus(running), progress);
    }

    @Test
    void pollsOftenWhileTheJobHasJustStarted() {
        var progress = Optional.of(new JobPolling.Progress(2, 240, START));
        assertThat(waitAfter(Duration.ofMinutes(1), progress)).isEqualTo(15);
        assertThat(waitAfter(Duration.ofMinutes(5), progress)).isEqualTo(30);
    }

    @Test
    void withoutProgressWaitsAMinuteForTwoHoursThenLongerAsTheJobRuns() {
        assertThat(waitAfter(Duration.ofMinutes(30), Optional.empty())).isEqualTo(60);
        assertThat(waitAfter(Duration.ofHours(2), Optional.empty())).isEqualTo(60);
        assertThat(waitAfter(Duration.ofHours(4), Optional.empty())).isEqualTo(120);
        assertThat(waitAfter(Duration.ofHours(20), Optional.empty())).isEqualTo(600);
        assertThat(waitAfter(Duration.ofHours(100), Optional.empty())).isEqualTo(900);
    }

    /**
     * The longest training maxRunHours allows (168 h), printing no progress line, polled from start
     * to end: 9 history events a poll (CheckTraining's 5 as a Task, the Choice's 2, WaitForTraining's
     * 2) leave more than half of Step Functions' 25,000 for the rest of the run, retries included.
     */
    @Test
    void aWeekOfTrainingWithoutProgressLinesStaysFarBelowTheHistoryLimit() {
        Duration running = Duration.ZERO;
        int polls = 0;
        while (running.compareTo(Duration.ofHours(168)) < 0) {
            running = running.plusSeconds(waitAfter(running, Optional.empty()));
            polls++;
        }
        assertThat(polls * 9).isLessThan(25_000 / 2);
        // Before: a poll a minute, past the limit after ~46 hours.
        assertThat(168 * 60 * 9).isGreaterThan(25_000);
    }

    @Test
    void waitsAThirdOfTheEstimatedTimeLeftCappedAtHalfAnHour() {
        // 20 of 240 epochs in 10 minutes: 110 minutes left.
        assertThat(waitAfter(Duration.ofMinutes(10), Optional.of(new JobPolling.Progress(20, 240, START))))
                .isEqualTo(1800);
        // 200 of 240 in 100 minutes: 20 minutes left.
        assertThat(waitAfter(Duration.ofMinutes(100), Optional.of(new JobPolling.Progress(200, 240, START))))
                .isEqualTo(400);
        // 238 of 240: one minute left, never under 60 s.
        assertThat(waitAfter(Duration.ofMinutes(119), Optional.of(new JobPolling.Progress(238, 240, START))))
                .isEqualTo(60);
    }

    @Test
    void allEpochsDoneOrNoneYetFallsBackToAMinute() {
        assertThat(waitAfter(Duration.ofMinutes(120), Optional.of(new JobPolling.Progress(240, 240, START))))
                .isEqualTo(60);
        assertThat(waitAfter(Duration.ofMinutes(20), Optional.of(new JobPolling.Progress(0, 240, START))))
                .isEqualTo(60);
    }
}
