package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;

/** What a simulated pod does once it runs: for how long, how it ends, what it leaves behind. */
public interface PodBehaviour {
    record Outcome(Duration runtime, int exitCode, String terminationMessage) {}

    Outcome outcome(Job job, Pod pod, KubernetesClient client);
}
