package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * What a cluster runs decides what a run can do on it: without CoreDNS, the training's rendezvous
 * name does not resolve, and the run fails at CheckTraining with that diagnosis, in bounded
 * simulated time, leaving nothing behind.
 */
class ClusterSoftwareTest {
    @Test
    void onAnExistingClusterWithoutCoreDnsTheTrainingFailsWithTheRendezvousUnresolved() throws IOException {
        String spec = Files.readString(Path.of("examples/existing-cluster.json"));
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            // Someone removed CoreDNS from the cluster: nothing answers the kube-dns Service.
            cloud.kubernetes(LocalCloud.DEMO_CLUSTER)
                    .admin()
                    .apps()
                    .deployments()
                    .inNamespace("kube-system")
                    .withName("coredns")
                    .delete();
            Instant start = cloud.clock().instant();
            RunReport r = new LocalRun(cloud, Faults.none(), e -> {})
                    .execute(RunSpecs.normalize(Json.write(Json.read(spec))), "warm-cluster");

            assertThat(r.status()).as(r.cause()).isEqualTo("FAILED");
            assertThat(r.failedState()).as(r.cause()).isEqualTo("CheckTraining");
            assertThat(r.error() + " " + r.cause())
                    .contains("RendezvousUnresolved")
                    .contains("Name or service not known")
                    .contains("CoreDNS is not running");
            assertThat(Duration.between(start, cloud.clock().instant())).isLessThan(Duration.ofHours(1));
            assertThat(r.resources().remaining()).isEmpty();
        }
    }
}
