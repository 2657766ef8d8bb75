package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.TestTime;
import io.trainplane.aws.InstancePrices;
import io.trainplane.core.Json;
import io.trainplane.local.sim.ClusterFault;
import io.trainplane.local.sim.SimulatedEventBus;
import io.trainplane.runs.Interruption;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.RunSpecs;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * End to end, through the real state machine: a worker's node lost half-way through the training
 * (gone, or its spot instance reclaimed) is an interruption, not a failure. The Job's pod failure
 * policy recreates the pod, the node group replaces the instance, the training resumes from its
 * last checkpoint and the run succeeds, saying so in its metrics; a run that allows no
 * interruption fails, saying why, and still cleans up.
 */
class InterruptionsRunTest {
    static ClusterRulesRunTest.Outcome quickstart(ClusterFault fault, Integer maxInterruptions) throws Exception {
        ObjectNode spec = ClusterRulesRunTest.example("quickstart.json");
        if (maxInterruptions != null) {
            ((ObjectNode) spec.get("training")).put("maxInterruptions", maxInterruptions);
        }
        return ClusterRulesRunTest.run(spec, fault, cloud -> {});
    }

    @ParameterizedTest(name = "--cluster-fault {0}")
    @EnumSource(
            value = ClusterFault.class,
            names = {"NODE_LOST", "SPOT_INTERRUPTION"})
    void theTrainingResumesOnReplacementCapacityAndTheRunSucceeds(ClusterFault fault) throws Exception {
        ClusterRulesRunTest.Outcome o = quickstart(fault, null);
        RunReport r = o.report();

        assertThat(r.status()).as(r.error() + " " + r.cause()).isEqualTo("SUCCEEDED");
        assertThat(r.metrics()).containsKeys("accuracy", "restarts", "resumedFromEpoch");
        assertThat(r.metrics().get("restarts")).isGreaterThanOrEqualTo(1.0);
        // Quickstart trains 10 epochs; the node goes in the middle of the sixth: 5 were checkpointed.
        assertThat(r.metrics().get("resumedFromEpoch")).isEqualTo(5.0);
        assertThat(r.resources().remaining()).isEmpty();
        assertThat(o.leftInCloud()).isEmpty();
    }

    @ParameterizedTest(name = "--cluster-fault {0}")
    @EnumSource(
            value = ClusterFault.class,
            names = {"NODE_LOST", "SPOT_INTERRUPTION"})
    void theRecordAndATrainingInterruptedEventTellTheStory(ClusterFault fault) throws Exception {
        ObjectNode spec = ClusterRulesRunTest.example("quickstart.json");
        RunRecord record;
        List<SimulatedEventBus.Event> interrupted;
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunReport r = new LocalRun(cloud, Faults.onCluster(fault), e -> {})
                    .execute(
                            RunSpecs.normalize(Json.write(spec)),
                            spec.path("runId").asText());
            assertThat(r.status()).as(r.error() + " " + r.cause()).isEqualTo("SUCCEEDED");
            record = new RunStore(cloud.clients().dynamoDb(), LocalCloud.tableName(), cloud.clock()).get(r.runId());
            interrupted = cloud.bus().events().stream()
                    .filter(e -> e.detailType().equals("Training Interrupted"))
                    .toList();
        }
        String reason = fault == ClusterFault.SPOT_INTERRUPTION ? "TerminationByKubelet" : "DeletionByPodGC";
        // One node lost: one interruption, of the last worker, recorded and announced once.
        assertThat(record.interruptions())
                .hasSize(record.metrics().get("restarts").intValue());
        Interruption i = record.interruptions().getFirst();
        assertThat(i.reason()).isEqualTo(reason);
        assertThat(i.index()).isEqualTo(1);
        assertThat(i.node()).isNotBlank();
        assertThat(i.resumed()).isTrue();
        assertThat(i.resumedAt()).isAfter(i.at());
        assertThat(i.lostMinutes()).isPositive();
        var group = RunSpecs.fromNormalized(record.specJson()).cluster().nodeGroup();
        double groupPerHour = InstancePrices.load(io.trainplane.aws.RunPrices.DEFAULT_REGION)
                        .perHour(group.instanceType())
                        .orElseThrow()
                * group.nodes();
        assertThat(i.lostCost()).isCloseTo(groupPerHour * i.lostMinutes() / 60, within(1e-9));
        assertThat(interrupted).hasSize(record.interruptions().size()).first().satisfies(e -> {
            assertThat(e.detail().path("runId").asText()).isEqualTo(record.runId());
            assertThat(e.detail().path("pod").asText()).isEqualTo(i.pod());
            assertThat(e.detail().path("node").asText()).isEqualTo(i.node());
            assertThat(e.detail().path("reason").asText()).isEqualTo(reason);
            assertThat(e.detail().path("interruptions").asInt()).isEqualTo(1);
        });
    }

    @ParameterizedTest(name = "--cluster-fault {0}")
    @EnumSource(
            value = ClusterFault.class,
            names = {"NODE_LOST", "SPOT_INTERRUPTION"})
    void moreInterruptionsThanAllowedFailTheRunAndCleanupRuns(ClusterFault fault) throws Exception {
        ClusterRulesRunTest.Outcome o = quickstart(fault, 0);
        RunReport r = o.report();

        assertThat(r.status()).isEqualTo("FAILED");
        assertThat(r.failedState()).isEqualTo("CheckTraining");
        assertThat(r.error() + " " + r.cause())
                .contains("TooManyInterruptions")
                .contains("training was interrupted 1 times (training.maxInterruptions is 0)")
                .contains(fault == ClusterFault.SPOT_INTERRUPTION ? "TerminationByKubelet" : "DeletionByPodGC");
        assertThat(r.metrics()).containsEntry("restarts", 1.0);
        assertThat(r.resources().created()).anyMatch(c -> c.startsWith("kubernetes:Job/"));
        assertThat(r.resources().remaining()).isEmpty();
        assertThat(o.leftInCloud()).isEmpty();
    }
}
