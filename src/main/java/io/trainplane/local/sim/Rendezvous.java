package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.trainplane.kubernetes.JobPods;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * torchrun's c10d rendezvous as the simulated workloads see it: the training starts once every
 * worker of the Job (its completions; a PyTorchJob's replicas) runs, and a worker that waits for
 * the others longer than the join timeout fails (RendezvousTimeoutError, torchrun exits 1). So a
 * training whose last worker cannot be scheduled does not train on the others alone.
 */
public final class Rendezvous {
    /**
     * "join_timeout: The total time, in seconds, within which the rendezvous is expected to
     * complete. Defaults to 600 seconds." (https://pytorch.org/docs/stable/elastic/rendezvous.html)
     */
    public static final Duration JOIN_TIMEOUT = Duration.ofSeconds(600);

    /** The termination message of a worker that gave up waiting. */
    static final String TIMED_OUT = "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError: the rendezvous"
            + " did not complete within the join timeout (600 s): not every node joined";

    private Rendezvous() {}

    /** When the last of the training's workers started, once all of them run; empty while one does not. */
    public static Optional<Instant> complete(Job training, List<Pod> siblings) {
        int workers = training.getSpec().getCompletions() == null
                ? 1
                : training.getSpec().getCompletions();
        List<Pod> lost = JobPods.interrupted(siblings);
        List<Instant> started = siblings.stream()
                .filter(p -> !lost.contains(p)
                        && p.getStatus() != null
                        && p.getStatus().getStartTime() != null
                        && !"Pending".equals(p.getStatus().getPhase()))
                .map(p -> Instant.parse(p.getStatus().getStartTime()))
                .toList();
        return started.size() < workers ? Optional.empty() : started.stream().max(Instant::compareTo);
    }

    /** How a worker that has waited {@code waited} ends: failed past the join timeout, else not yet. */
    public static Optional<PodBehaviour.Outcome> timedOut(Duration waited) {
        return waited.compareTo(JOIN_TIMEOUT) < 0
                ? Optional.empty()
                : Optional.of(new PodBehaviour.Outcome(JOIN_TIMEOUT, 1, TIMED_OUT));
    }
}
