package io.trainplane.runs;

import static io.trainplane.runs.RunStatus.BUDGET_REACHED;
import static io.trainplane.runs.RunStatus.CANCELLED;
import static io.trainplane.runs.RunStatus.CLEANING_UP;
import static io.trainplane.runs.RunStatus.EVALUATING;
import static io.trainplane.runs.RunStatus.FAILED;
import static io.trainplane.runs.RunStatus.PENDING;
import static io.trainplane.runs.RunStatus.PREPARING_DATA;
import static io.trainplane.runs.RunStatus.PROVISIONING;
import static io.trainplane.runs.RunStatus.SUCCEEDED;
import static io.trainplane.runs.RunStatus.TRAINING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunStatusTest {
    /**
     * The expected transition table, written out: row = from, column = to, in declaration order
     * (PENDING PROVISIONING PREPARING_DATA TRAINING EVALUATING CLEANING_UP SUCCEEDED BUDGET_REACHED
     * FAILED CANCELLED). 'x' allowed, '.' refused.
     */
    static final List<String> EXPECTED = List.of(
            /* PENDING        */ "xxxxxxxxxx",
            /* PROVISIONING   */ ".xxxxxxxxx",
            /* PREPARING_DATA */ "..xxxxxxxx",
            /* TRAINING       */ "...xxxxxxx",
            /* EVALUATING     */ "....xxxxxx",
            /* CLEANING_UP    */ ".....xxxxx",
            /* SUCCEEDED      */ "......x...",
            /* BUDGET_REACHED */ ".......x..",
            /* FAILED         */ "........x.",
            /* CANCELLED      */ ".........x");

    static boolean expectedAllowed(RunStatus from, RunStatus to) {
        return EXPECTED.get(from.ordinal()).charAt(to.ordinal()) == 'x';
    }

    @Test
    void theTableCoversTheStatusesInOrder() {
        assertThat(RunStatus.values())
                .containsExactly(
                        PENDING,
                        PROVISIONING,
                        PREPARING_DATA,
                        TRAINING,
                        EVALUATING,
                        CLEANING_UP,
                        SUCCEEDED,
                        BUDGET_REACHED,
                        FAILED,
                        CANCELLED);
        assertThat(EXPECTED).hasSize(10).allSatisfy(row -> assertThat(row).hasSize(10));
    }

    @Test
    void everyPairFollowsTheExpectedTable() {
        for (RunStatus from : RunStatus.values()) {
            for (RunStatus to : RunStatus.values()) {
                assertThat(from.canMoveTo(to)).as("%s -> %s", from, to).isEqualTo(expectedAllowed(from, to));
            }
        }
    }

    @Test
    void withStatusChecksEveryPair() {
        for (RunStatus from : RunStatus.values()) {
            RunRecord run = record("run-1", from);
            for (RunStatus to : RunStatus.values()) {
                if (expectedAllowed(from, to)) {
                    assertThat(run.withStatus(to).status()).isEqualTo(to);
                } else {
                    assertThatThrownBy(() -> run.withStatus(to))
                            .as("%s -> %s", from, to)
                            .isInstanceOfSatisfying(IllegalTransitionException.class, e -> {
                                assertThat(e.from()).isEqualTo(from);
                                assertThat(e.to()).isEqualTo(to);
                                assertThat(e.runId()).isEqualTo("run-1");
                                assertThat(e)
                                        .hasMessageContaining("run-1")
                                        .hasMessageContaining(from.name())
                                        .hasMessageContaining(to.name());
                            });
                }
            }
        }
    }

    @Test
    void terminalStatuses() {
        assertThat(EnumSet.allOf(RunStatus.class).stream().filter(RunStatus::isTerminal))
                .containsExactly(SUCCEEDED, BUDGET_REACHED, FAILED, CANCELLED);
    }

    @Test
    void messagesSayWhy() {
        assertThatThrownBy(() -> record("r", SUCCEEDED).withStatus(FAILED))
                .hasMessage("run r: status SUCCEEDED cannot move to FAILED (a terminal status never changes)");
        assertThatThrownBy(() -> record("r", TRAINING).withStatus(PROVISIONING))
                .hasMessage("run r: status TRAINING cannot move to PROVISIONING (status moves only forward)");
    }

    static RunRecord record(String runId, RunStatus status) {
        Instant t = Instant.parse("2025-07-01T12:00:00Z");
        return new RunRecord(runId, "{}", SpecHash.of("{}"), status, null, null, null, null, null, t, t, 1);
    }
}
