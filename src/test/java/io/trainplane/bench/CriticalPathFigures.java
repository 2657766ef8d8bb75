package io.trainplane.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

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

    /**
     * Pulling a container image onto a fresh node, per GB of image: "Standard Docker image pulls of
     * 15–20 GB can take 4–6 minutes per instance" (AWS Machine Learning Blog, "Reducing container
     * cold start times using SOCI index on DLAMI and DLC", as republished at
     * https://wpnews.pro/news/reducing-container-cold-start-times-using-soci-index-on-dlami-and-dlc):
     * 5 minutes for 17.5 GB, 17 s per GB.
     */
    static final Duration PULL_PER_GB = Duration.ofSeconds(17);

    /**
     * Image sizes (GB, uncompressed as the pull above counts them). No citable figure was found for
     * the default image: 7.6 GB is an estimate of pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime
     * unpacked (about 3.4 GB compressed on Docker Hub,
     * https://hub.docker.com/r/pytorch/pytorch/tags?name=2.5.1-cuda12.4-cudnn9-runtime), to be
     * replaced by a measured size.
     */
    static final Map<String, Double> IMAGE_GB = Map.of("pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime", 7.6);

    private CriticalPathFigures() {}

    /** How long pulling {@code gigabytes} takes at {@link #PULL_PER_GB}. */
    static Duration pull(double gigabytes) {
        return Duration.ofMillis(Math.round(PULL_PER_GB.toMillis() * gigabytes));
    }

    /**
     * What one run reached, in simulated time. {@code clusterActive}, {@code nodesActive} are null
     * when the run created neither (an existing cluster); {@code firstStep} is when the training
     * started in the twin, which starts a pod's container as soon as it is bound (no image pull);
     * {@code nodesGone} when the worker node group finished deleting. {@code clusterCreating},
     * {@code nodegroupCreating} are the twin's durations, {@code pull} the image pull it does not
     * simulate.
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

        /**
         * Trigger → first training step as it would be on AWS: the twin's first step plus the pull,
         * which the workflow starts only when the training pod is bound to its node.
         */
        Duration toFirstStep() {
            return Duration.between(trigger, firstStep).plus(pull);
        }

        Duration overhead() {
            return toFirstStep().minus(floor());
        }

        /** Worker nodes ACTIVE → first step (the pull included), per node. */
        Duration idleBefore() {
            return createsNodes() ? Duration.between(nodesActive, firstStep).plus(pull) : Duration.ZERO;
        }

        /** Last evaluation's end → the worker node group deleted, per node. */
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
