package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Closing an API server whose event loop is held up by a request still being answered: the mock
 * server gives up after 10 seconds, and the twin goes on (a run's cleanup and a test's teardown
 * stop servers; neither may fail because one was slow to stop).
 */
class SimulatedKubernetesCloseTest {
    @Test
    void aServerThatCannotStopInTimeIsLeftRunningWithoutFailingTheCaller() throws Exception {
        CountDownLatch answering = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        SimulatedKubernetes server = new SimulatedKubernetes();
        // The gate runs on the server's event loop: holding it there holds the loop.
        server.guardedBy((method, path, authorization) -> {
            answering.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        });
        var client = new KubernetesClientBuilder()
                .withConfig(new ConfigBuilder()
                        .withMasterUrl(server.endpoint())
                        .withHttp2Disable(true)
                        .withRequestRetryBackoffLimit(0)
                        .build())
                .build();
        Thread request = Thread.ofVirtual().start(() -> {
            try {
                client.namespaces().list();
            } catch (RuntimeException expected) {
                // The server went away under it.
            }
        });
        try {
            assertThat(answering.await(10, TimeUnit.SECONDS)).isTrue();
            assertThatCode(server::close).doesNotThrowAnyException();
        } finally {
            release.countDown();
            request.join(30_000);
            client.close();
        }
    }
}
