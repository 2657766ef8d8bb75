package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Optional;

/** What a simulated pod does once it runs: for how long, how it ends, what it leaves behind. */
public interface PodBehaviour {
    record Outcome(Duration runtime, int exitCode, String terminationMessage) {}

    Outcome outcome(Job job, Pod pod, KubernetesClient client);

    /**
     * How a running pod ends, or empty while it is still running (a real process). The controller
     * asks at every reconciliation; {@code running} is how long the pod has run in simulated time.
     * By default the outcome is known from the start.
     */
    default Optional<Outcome> poll(Job job, Pod pod, KubernetesClient client, Duration running) {
        return Optional.of(outcome(job, pod, client));
    }
}
