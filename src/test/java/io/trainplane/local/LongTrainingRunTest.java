package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.local.asl.HistoryEvent;
import io.trainplane.local.sim.SimulatedWorkload;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The longest training a spec allows (maxRunHours 168), printing no progress line, run through the
 * real state machine: Step Functions fails an execution past 25,000 history events
 * (https://docs.aws.amazon.com/step-functions/latest/dg/service-quotas.html), which no Catch takes,
 * so polling that cost the same every minute would end such a run after ~46 hours without cleanup.
 */
class LongTrainingRunTest {
    /** 1,000 epochs (the schema's most) of 10 minutes: 166 h 40 min of training. */
    static final Duration PER_EPOCH = Duration.ofMinutes(10);

    @Test
    void aWeekLongTrainingWithoutProgressLinesSucceedsFarBelowTheHistoryLimit() throws IOException {
        ObjectNode spec = (ObjectNode) Json.read(Files.readString(Path.of("examples/quickstart.json")));
        ((ObjectNode) spec.path("training")).put("epochs", 1000);
        spec.put("maxRunHours", 168).put("runId", "week");
        List<HistoryEvent> history = new ArrayList<>();
        try (LocalCloud cloud = new LocalCloud(TestTime.START, new SimulatedWorkload(PER_EPOCH, false))) {
            RunReport r = new LocalRun(cloud, Faults.none(), history::add)
                    .execute(RunSpecs.normalize(Json.write(spec)), "week");
            assertThat(r.status()).as(r.error() + " " + r.cause()).isEqualTo("SUCCEEDED");
            assertThat(r.resources().remaining()).isEmpty();
            assertThat(Duration.ofSeconds(r.simulatedSeconds()))
                    .as("the run lasted the training's week")
                    .isGreaterThan(PER_EPOCH.multipliedBy(1000));
        }
        long polls = history.stream()
                .filter(e -> e.type().equals("TaskScheduled") && "CheckTraining".equals(e.stateName()))
                .count();
        System.out.printf("166 h 40 min of training: %d history events, %d polls%n", history.size(), polls);
        // Half of the limit left for retries, a resumed training's second wait and what comes after.
        assertThat(history.size())
                .as("history events (%d polls of the training)", polls)
                .isLessThan(25_000 / 2);
        // Not vacuous: every minute for the week would be ~10,000 polls.
        assertThat(polls).isGreaterThan(500).isLessThan(1_500);
    }
}
