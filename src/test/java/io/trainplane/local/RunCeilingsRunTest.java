package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * StartRun enforces the stack's ceilings (template.yaml's defaults in the local stack) whoever
 * starts the run: an execution started from the console or the API, without the CLI's checks, is
 * refused in its first state with the parameter named, and nothing is created.
 */
class RunCeilingsRunTest {
    static ObjectNode quickstart() throws IOException {
        return (ObjectNode) Json.read(Files.readString(Path.of("examples/quickstart.json")));
    }

    @Test
    void moreNodesThanTheStackAllowsAreRefusedInStartRun() throws IOException {
        ObjectNode spec = quickstart();
        ((ObjectNode) spec.at("/cluster/nodeGroup")).put("nodes", 9);
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunReport r = new LocalRun(cloud, Faults.none(), e -> {})
                    .execute(RunSpecs.normalize(Json.write(spec)), "quickstart");

            assertThat(r.status()).isEqualTo("FAILED");
            assertThat(r.failedState()).isEqualTo("StartRun");
            assertThat(r.cause()).contains("/cluster/nodeGroup/nodes").contains("MaxNodesPerRun is 8");
            assertThat(r.resources().created()).isEmpty();
            assertThat(cloud.inventory()).isEmpty();
        }
    }

    @Test
    void aRunBeyondMaxConcurrentRunsIsRefusedUntilOneIsOver() throws IOException {
        int limit = LocalCloud.ceilings().maxConcurrentRuns();
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunStore store = new RunStore(cloud.clients().dynamoDb(), LocalCloud.tableName(), cloud.clock());
            for (int i = 0; i < limit; i++) {
                store.create("going-" + i, Json.write(quickstart()), null);
            }
            ObjectNode another = quickstart().put("runId", "one-more");
            RunReport r = new LocalRun(cloud, Faults.none(), e -> {})
                    .execute(RunSpecs.normalize(Json.write(another)), "one-more");

            assertThat(r.status()).isEqualTo("FAILED");
            assertThat(r.failedState()).isEqualTo("StartRun");
            assertThat(r.cause())
                    .contains(limit + " runs of this stack are going on")
                    .contains("MaxConcurrentRuns (" + limit + ")");
            assertThat(r.resources().created()).isEmpty();
        }
    }
}
