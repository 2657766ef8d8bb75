package io.trainplane.bench;

import java.time.Duration;
import java.time.Instant;

/**
 * The arithmetic of the critical-path benchmark, apart from the run so it can be tested: from the
 * instants a simulated run reached, the floor AWS imposes, the overhead above it and the paid idle
 * worker-node time.
 */
final class CriticalPathFigures {
    /** Issue 19's target: trigger → first training step at most this far above the floor. */
    static final Duration OVERHEAD_TARGET = Duration.ofSeconds(60);

    /** Issue 19's target: paid idle accelerator time beyond the image pull, per run (node-minutes). */
    static final double IDLE_BEYOND_PULL_TARGET_NODE_MINUTES = 2;

    private CriticalPathFigures() {}

    /**
     * What one run reached, in simulated time. {@code clusterActive}, {@code nodesActive} are null
     * when the run created neither (an existing cluster); {@code firstStep} is when the training
     * started in the twin, whose kubelets pull the images first (local/sim ImagePulls);
     * {@code nodesGone} when the worker nodes' instances terminated (their billing ends).
     * {@code clusterCreating}, {@code nodegroupCreating} are the twin's durations, {@code pull} the
     * training image's pull at the twin's rate for its size.
     */
    record Timeline(
            Instant trigger,
            Instant clusterActive,
            Instant nodesActive,
            Instant firstStep,
            Instant lastEvaluationEnd,
            Instant nodesGone,
            Duration clusterCreating,
            Duration nodegroupCreating,
            Duration pull,
            int workerNodes,
            double nodePricePerHour) {

        boolean createsNodes() {
            return nodesActive != null;
        }

        /**
         * The longest chain AWS imposes before a training step: control plane ACTIVE → node group
         * ACTIVE (its nodes Ready) → image pulled. On an existing cluster, only the pull (its nodes
         * are assumed Ready, the image not cached).
         */
        Duration floor() {
            Duration floor = pull;
            if (clusterActive != null) {
                floor = floor.plus(clusterCreating);
            }
            if (createsNodes()) {
                floor = floor.plus(nodegroupCreating);
            }
            return floor;
        }

        /** Trigger → first training step, the pull included (the twin pulls before it starts the containers). */
        Duration toFirstStep() {
            return Duration.between(trigger, firstStep);
        }

        Duration overhead() {
            return toFirstStep().minus(floor());
        }

        /** Worker nodes ACTIVE → first step (the pull included), per node. */
        Duration idleBefore() {
            return createsNodes() ? Duration.between(nodesActive, firstStep) : Duration.ZERO;
        }

        /** Last evaluation's end → the worker instances terminated, per node. */
        Duration idleAfter() {
            return createsNodes() && nodesGone != null && lastEvaluationEnd != null
                    ? Duration.between(lastEvaluationEnd, nodesGone)
                    : Duration.ZERO;
        }

        /** Paid idle node-minutes: both ends, every worker node. */
        double idleNodeMinutes() {
            return (idleBefore().toMillis() + idleAfter().toMillis()) / 60_000.0 * workerNodes;
        }

        /** The idle node-minutes beyond the image pull every node must wait for. */
        double idleBeyondPullNodeMinutes() {
            return createsNodes() ? idleNodeMinutes() - pull.toMillis() / 60_000.0 * workerNodes : 0;
        }

        double idleCost() {
            return idleNodeMinutes() / 60 * nodePricePerHour;
        }

        boolean overheadWithinTarget() {
            return overhead().compareTo(OVERHEAD_TARGET) <= 0;
        }

        boolean idleWithinTarget() {
            return idleBeyondPullNodeMinutes() <= IDLE_BEYOND_PULL_TARGET_NODE_MINUTES;
        }
    }
}
