package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.local.sim.ClusterFault;
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
