package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.kubernetes.WorkloadManifests;
import io.trainplane.local.asl.SimulatedClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Docker Hub's ten anonymous pulls an hour per address, the stack's NAT address shared by every node. */
class DockerHubPullsTest {
    final SimulatedClock clock = new SimulatedClock(Instant.parse("2026-11-27T08:00:00Z"));
    final DockerHubPulls hub = new DockerHubPulls(clock);

    @Test
    void theEleventhAnonymousPullWithinAnHourIsRefusedWithDockerHubs429() {
        for (int node = 0; node < 10; node++) {
            assertThat(hub.refusal(null, "node-" + node, "pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime"))
                    .isEmpty();
        }

        assertThat(hub.refusal(null, "node-10", "pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime"))
                .hasValueSatisfying(error -> assertThat(error)
                        .contains("docker.io/pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime", "429 Too Many Requests")
                        .contains("toomanyrequests: You have reached your unauthenticated pull rate limit"));
        // Other registries do not count.
        assertThat(hub.refusal(null, "node-10", WorkloadManifests.AWS_CLI_IMAGE))
                .isEmpty();
        assertThat(hub.refusal(null, "node-10", "123456789012.dkr.ecr.us-east-1.amazonaws.com/train:1"))
                .isEmpty();

        clock.advance(Duration.ofHours(1));
        assertThat(hub.refusal(null, "node-10", "busybox:1.37")).isEmpty();
    }

    @Test
    void dockerHubsImagesAreThoseWithoutARegistryHost() {
        assertThat(DockerHubPulls.dockerHub("busybox")).isTrue();
        assertThat(DockerHubPulls.dockerHub("pytorch/pytorch:2.5.1")).isTrue();
        assertThat(DockerHubPulls.dockerHub("docker.io/library/alpine:3")).isTrue();
        assertThat(DockerHubPulls.dockerHub("ghcr.io/kubeflow/trainer/trainer-controller-manager:v2.3.0"))
                .isFalse();
        assertThat(DockerHubPulls.dockerHub("localhost:5000/x:1")).isFalse();
    }
}
