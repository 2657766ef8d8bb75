package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.RunSpecs;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * torchrun's rendezvous in the simulated cluster: the workers train only together. On an existing
 * cluster (whose nodes the spec rules cannot know) three workers of 3 CPUs on two 4-vCPU nodes
 * leave one Pending; the two that run wait in the rendezvous and fail at its join timeout, as on
 * EKS, instead of training alone.
 */
class RendezvousRunTest {
    @ParameterizedTest(name = "launcher {0}")
    @ValueSource(strings = {"indexed-job", "pytorchjob"})
    void aTrainingWhoseLastWorkerCannotRunFailsAtTheRendezvous(String launcher) throws Exception {
        ObjectNode spec = ClusterRulesRunTest.example("existing-cluster.json");
        ((ObjectNode) spec.get("training"))
                .put("workers", 3)
                .put("cpu", "3")
                .put("memory", "4Gi")
                .put("launcher", launcher);
        RunReport r;
        RunRecord record;
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            r = new LocalRun(cloud, Faults.none(), e -> {})
                    .execute(
                            RunSpecs.normalize(Json.write(spec)),
                            spec.path("runId").asText());
            record = new RunStore(cloud.clients().dynamoDb(), LocalCloud.tableName(), cloud.clock()).get(r.runId());
            assertThat(cloud.inventory()).isEmpty();
        }

        assertThat(r.status()).isEqualTo("FAILED");
        assertThat(r.failedState()).isEqualTo("CheckTraining");
        assertThat(r.error()).isEqualTo("TrainingFailed");
        assertThat(record.error().logTail()).contains("RendezvousTimeoutError");
        assertThat(r.resources().remaining()).isEmpty();
    }
}
