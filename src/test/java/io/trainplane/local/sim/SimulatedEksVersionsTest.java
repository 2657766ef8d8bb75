package io.trainplane.local.sim;

import static io.trainplane.local.sim.SimAccount.cluster;
import static io.trainplane.local.sim.SimAccount.nodegroup;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.eks.model.CreateClusterRequest;
import software.amazon.awssdk.services.eks.model.InvalidParameterException;

/** The simulated EKS holds Kubernetes versions to EKS's calendar on the simulated clock's day (SimAccount starts 2025-01-01). */
class SimulatedEksVersionsTest {
    final SimAccount sim = new SimAccount();

    static CreateClusterRequest withVersion(String name, String version) {
        return cluster(name, "tok-" + name, "run-1").toBuilder()
                .version(version)
                .build();
    }

    void refusedAsEksDoes(Runnable call, String version) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(InvalidParameterException.class, e -> {
            assertThat(e.statusCode()).isEqualTo(400);
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidParameterException");
            assertThat(e.awsErrorDetails().errorMessage()).isEqualTo("unsupported Kubernetes version " + version);
        });
    }

    void moveTo(String isoDay) {
        sim.clock.advance(Duration.between(sim.clock.instant(), Instant.parse(isoDay + "T00:00:00Z")));
    }

    @Test
    void createClusterRefusesAVersionEksDoesNotRunAndCreatesNothing() {
        refusedAsEksDoes(() -> sim.eks.createCluster(withVersion("c1", "1.99")), "1.99");
        refusedAsEksDoes(() -> sim.eks.createCluster(withVersion("c1", "1.20")), "1.20");
        refusedAsEksDoes(() -> sim.eks.createCluster(withVersion("c1", "1.32")), "1.32"); // released on EKS 2025-01-23

        assertThat(sim.eks.listClusters(r -> {}).clusters()).isEmpty();
        assertThat(sim.eks.resources()).isEmpty();
    }

    @Test
    void aVersionIsCreatedUntilTheEndOfItsExtendedSupport() {
        // 2025-01-01: 1.28 is in extended support (standard support ended 2024-11-26, extended ends 2025-11-26).
        assertThat(sim.eks.createCluster(withVersion("old", "1.28")).cluster().version())
                .isEqualTo("1.28");

        moveTo("2025-11-25");
        assertThat(sim.eks
                        .createCluster(withVersion("last-day", "1.28"))
                        .cluster()
                        .version())
                .isEqualTo("1.28");
        moveTo("2025-11-26");
        refusedAsEksDoes(() -> sim.eks.createCluster(withVersion("too-late", "1.28")), "1.28");
        assertThat(sim.eks.listClusters(r -> {}).clusters()).containsExactly("last-day", "old");
    }

    @Test
    void createNodegroupRefusesAnUnsupportedVersionAndInheritsTheClusters() {
        sim.eks.createCluster(cluster("c1", "t", "run-1"));
        sim.advance(SimulatedEks.CLUSTER_CREATING);

        refusedAsEksDoes(
                () -> sim.eks.createNodegroup(nodegroup("c1", "ng", "n", "run-1").toBuilder()
                        .version("1.27")
                        .build()),
                "1.27");
        assertThat(sim.eks.listNodegroups(r -> r.clusterName("c1")).nodegroups())
                .isEmpty();

        assertThat(sim.eks
                        .createNodegroup(nodegroup("c1", "ng", "n", "run-1"))
                        .nodegroup()
                        .version())
                .isEqualTo("1.31");
    }

    @Test
    void aClusterWithoutAVersionGetsTheNewestInStandardSupportThatDay() {
        sim.eks.createCluster(withVersion("default", null));

        // 2025-01-01: 1.31 is the newest on EKS (1.32 comes 2025-01-23).
        assertThat(sim.eks.describeCluster(r -> r.name("default")).cluster().version())
                .isEqualTo("1.31");
    }
}
