package io.trainplane.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.trainplane.local.sim.SimulatedKubernetes;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * How the functions' Kubernetes client speaks HTTP. Over plain http (the local API servers) the JDK
 * client's h2c upgrade left a write of 16 KB or more waiting forever for its response body, about
 * once in 250 new connections: a run's scripts ConfigMap (21 KB) hung whole CI runs that way.
 */
class EksClusterAccessHttpTest {
    @Test
    void plainHttpSpeaksHttp11AndHttpsLeavesTheProtocolToAlpn() {
        try (KubernetesClient local = EksClusterAccess.client("http://127.0.0.1:1", null, () -> "t");
                KubernetesClient eks = EksClusterAccess.client("https://example.eks.amazonaws.com", null, () -> "t")) {
            assertThat(local.getConfiguration().isHttp2Disable()).isTrue();
            assertThat(eks.getConfiguration().isHttp2Disable()).isFalse();
        }
    }

    @Test
    void largeWritesOnFreshConnectionsAllComplete() {
        String scripts = "x".repeat(21_000);
        try (SimulatedKubernetes server = new SimulatedKubernetes()) {
            // With the h2c upgrade, 400 fresh connections hung within the first 300 in every trial.
            assertTimeoutPreemptively(Duration.ofSeconds(90), () -> {
                for (int i = 0; i < 400; i++) {
                    try (KubernetesClient client = EksClusterAccess.client(server.endpoint(), null, () -> "t")) {
                        client.configMaps()
                                .inNamespace("default")
                                .resource(new ConfigMapBuilder()
                                        .withNewMetadata()
                                        .withName("scripts-" + i)
                                        .endMetadata()
                                        .addToData("train.py", scripts)
                                        .build())
                                .create();
                    }
                }
            });
            assertThat(server.admin().configMaps().inNamespace("default").list().getItems())
                    .hasSize(400);
        }
    }
}
