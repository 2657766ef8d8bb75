package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.spec.InvalidSpecException;
import io.trainplane.workflow.StepWiring;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** StartRun checks the Kubernetes version for the day on the clients' clock, before anything exists. */
class StartRunVersionTest {
    static final String SPEC_131 =
            """
            {"cluster": {"mode": "create", "kubernetesVersion": "1.31",
                         "nodeGroup": {"instanceType": "c5.xlarge", "nodes": 1}},
             "training": {"workers": 1}}""";

    final LocalCloud cloud = new LocalCloud();
    final Handlers handlers = new Handlers(cloud);

    @AfterEach
    void close() {
        cloud.close();
    }

    @Test
    void aVersionPastItsExtendedSupportOnTheClocksDayIsRefusedAndNothingIsCreated() {
        // The simulated clock starts now; 1.31 leaves EKS extended support at the start of 2026-11-26.
        Instant after = Instant.parse("2026-11-27T00:00:00Z");
        if (cloud.clock().instant().isBefore(after)) {
            cloud.clock().advance(Duration.between(cloud.clock().instant(), after));
        }

        assertThatThrownBy(() -> handlers.start(SPEC_131, "old-version"))
                .isInstanceOfSatisfying(
                        InvalidSpecException.class,
                        e -> assertThat(e.problems()).singleElement().satisfies(p -> {
                            assertThat(p.pointer()).isEqualTo("/cluster/kubernetesVersion");
                            assertThat(p.message()).contains("reached the end of EKS extended support on 2026-11-26");
                        }));
        assertThat(StepWiring.runStore(cloud.clients()).find("old-version")).isEmpty();
        assertThat(cloud.inventory()).isEmpty();
    }

    @Test
    void theDefaultVersionStartsTodayAndTheSimulatedEksAcceptsIt() {
        var state = handlers.start(
                "{\"cluster\": {\"mode\": \"create\", \"nodeGroup\": {\"instanceType\": \"c5.xlarge\","
                        + " \"nodes\": 1}}, \"training\": {\"workers\": 1}}",
                "default-version");

        String version = state.at("/spec/cluster/kubernetesVersion").asText();
        assertThat(version).isEqualTo("1.35");
        var created = cloud.clients().eks().createCluster(r -> r.name("v")
                .version(version)
                .roleArn("arn:aws:iam::000000000000:role/x")
                .resourcesVpcConfig(v -> v.subnetIds("subnet-a", "subnet-b")));
        assertThat(created.cluster().version()).isEqualTo(version);
    }
}
