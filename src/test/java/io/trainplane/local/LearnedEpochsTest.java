package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.TestTime;
import io.trainplane.aws.RunPrices;
import io.trainplane.core.Json;
import io.trainplane.runs.CostEstimate;
import io.trainplane.runs.EpochTime;
import io.trainplane.runs.PastEpochs;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The plan of a workload of your own learns its seconds per epoch from the runs the workflow
 * really stored: the spec StartRun keeps (its own runId, output prefix and budget) is the same work
 * as the next plan's.
 */
class LearnedEpochsTest {
    static RunSpec spec(String json, String runId) {
        ObjectNode named = ((ObjectNode) Json.read(json)).put("runId", runId);
        return RunSpecs.fromNormalized(RunSpecs.normalize(Json.write(named), TestTime.day()));
    }

    @Test
    void twoRunsOfAWorkloadTimeItsNextPlan() throws IOException {
        String custom = Files.readString(Path.of("examples/custom-image.json"));
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunStore store = new RunStore(cloud.clients().dynamoDb(), LocalCloud.tableName(), cloud.clock());
            List<Double> perEpoch = new ArrayList<>();
            for (String runId : List.of("custom-1", "custom-2")) {
                ObjectNode spec = ((ObjectNode) Json.read(custom)).put("runId", runId);
                RunReport r = new LocalRun(cloud, Faults.none(), e -> {})
                        .execute(RunSpecs.normalize(Json.write(spec)), runId);
                assertThat(r.status()).as(r.toString()).isEqualTo("SUCCEEDED");
                perEpoch.add(PastEpochs.secondsPerEpoch(spec(custom, runId), store.steps(runId))
                        .orElseThrow());
            }
            assertThat(perEpoch).allMatch(s -> s > 0);

            CostEstimate cost = CostEstimate.of(
                    spec(custom, "custom-3"),
                    RunPrices.forRegion(RunPrices.DEFAULT_REGION),
                    TestTime.day(),
                    PastEpochs.of(store));
            assertThat(cost.epochTime().source()).isEqualTo(EpochTime.Source.LEARNED);
            assertThat(cost.epochTime().seconds()).isCloseTo((perEpoch.get(0) + perEpoch.get(1)) / 2, within(1e-6));
            assertThat(cost.epochTime().describe()).isEqualTo("the mean of 2 earlier SUCCEEDED runs of this spec");
        }
    }
}
