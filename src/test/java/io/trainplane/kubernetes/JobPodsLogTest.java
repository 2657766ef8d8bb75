package io.trainplane.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.trainplane.local.sim.SimulatedKubernetes;
import org.junit.jupiter.api.Test;

/**
 * A pod's log is read with one GET of its log subresource, never through fabric8's getLog, which
 * first waits (up to 5 s, with a watch) for the pod to be Ready or ended: a starting pod's log is
 * wanted as it is, and the mock API server's event loop stalls while a watch closes.
 */
class JobPodsLogTest {
    @Test
    void aLogIsReadWithoutWaitingOnAWatch() {
        try (SimulatedKubernetes server = new SimulatedKubernetes()) {
            var client = server.admin();
            Pod pod = client.pods()
                    .inNamespace("default")
                    .resource(new PodBuilder()
                            .withNewMetadata()
                            .withName("starting")
                            .endMetadata()
                            .withNewSpec()
                            .addNewContainer()
                            .withName("main")
                            .withImage("busybox")
                            .endContainer()
                            .endSpec()
                            .build())
                    .create();
            pod.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder()
                    .withPhase("Pending")
                    .build());
            client.pods().inNamespace("default").resource(pod).updateStatus();

            long before = server.watches();
            JobPods.log(client, "default", "starting", 30, false);
            JobPods.log(client, "default", "starting", 30, true);
            assertThat(server.watches()).isEqualTo(before);

            // What it avoids: fabric8's getLog on a pod that is not Ready watches it first.
            client.pods()
                    .inNamespace("default")
                    .withName("starting")
                    .withReadyWaitTimeout(200)
                    .getLog();
            assertThat(server.watches()).isGreaterThan(before);
        }
    }
}
