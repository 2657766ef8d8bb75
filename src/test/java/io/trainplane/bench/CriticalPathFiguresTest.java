package io.trainplane.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CriticalPathFiguresTest {
    static final Instant T0 = Instant.parse("2026-11-24T00:00:00Z");

    /** Cluster 10 min, node group 4 min, pull 2 min; the run starts training (pulled) 19 min in, evaluates until 60, nodes gone at 66. */
    static CriticalPathFigures.Timeline created() {
        return new CriticalPathFigures.Timeline(
                T0,
                T0.plus(Duration.ofMinutes(11)),
                T0.plus(Duration.ofMinutes(15)),
                T0.plus(Duration.ofMinutes(19)),
                T0.plus(Duration.ofMinutes(60)),
                T0.plus(Duration.ofMinutes(66)),
                Duration.ofMinutes(10),
                Duration.ofMinutes(4),
                Duration.ofMinutes(2),
                2,
                30.0);
    }

    @Test
    void floorIsTheChainAwsImposesAndOverheadWhatTheRunAddsAboveIt() {
        var t = created();

        assertThat(t.floor()).isEqualTo(Duration.ofMinutes(16));
        assertThat(t.toFirstStep()).isEqualTo(Duration.ofMinutes(19));
        assertThat(t.overhead()).isEqualTo(Duration.ofMinutes(3));
        assertThat(t.overheadWithinTarget()).isFalse();
    }

    @Test
    void idleTimeCountsEveryWorkerNodeAtBothEndsAndIsPricedPerHour() {
        var t = created();

        // before: ACTIVE at 15 → first step at 19 (the 2-minute pull included) = 4 min; after: 60 → 66 = 6 min.
        assertThat(t.idleBefore()).isEqualTo(Duration.ofMinutes(4));
        assertThat(t.idleAfter()).isEqualTo(Duration.ofMinutes(6));
        assertThat(t.idleNodeMinutes()).isCloseTo(20.0, within(1e-9));
        assertThat(t.idleBeyondPullNodeMinutes()).isCloseTo(16.0, within(1e-9));
        assertThat(t.idleCost()).isCloseTo(10.0, within(1e-9));
        assertThat(t.idleWithinTarget()).isFalse();
    }

    @Test
    void anExistingClusterFloorIsThePullAloneAndItsNodesAreNotTheRunsToPay() {
        var t = new CriticalPathFigures.Timeline(
                T0,
                null,
                null,
                T0.plus(Duration.ofSeconds(130)),
                T0.plus(Duration.ofMinutes(10)),
                null,
                Duration.ofMinutes(10),
                Duration.ofMinutes(4),
                Duration.ofSeconds(90),
                2,
                30.0);

        assertThat(t.floor()).isEqualTo(Duration.ofSeconds(90));
        assertThat(t.overhead()).isEqualTo(Duration.ofSeconds(40));
        assertThat(t.overheadWithinTarget()).isTrue();
        assertThat(t.idleNodeMinutes()).isZero();
        assertThat(t.idleWithinTarget()).isTrue();
    }
}
