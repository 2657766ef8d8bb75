package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.TestTime;
import io.trainplane.spec.InvalidSpecException;
import io.trainplane.spec.KubernetesVersions;
import io.trainplane.workflow.StepWiring;
import java.time.LocalDate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** StartRun checks the Kubernetes version for the day on the clients' clock, before anything exists. */
class StartRunVersionTest {
    static final String SPEC_131 =
            """
            {"cluster": {"mode": "create", "kubernetesVersion": "1.31",
                         "nodeGroup": {"instanceType": "c5.xlarge", "nodes": 1}},
             "training": {"workers": 1}}""";

    final LocalCloud cloud = new LocalCloud(TestTime.START);
    final Handlers handlers = new Handlers(cloud);

    @AfterEach
    void close() {
        cloud.close();
    }

    @Test
    void aVersionPastItsExtendedSupportOnTheClocksDayIsRefusedAndNothingIsCreated() {
        // The simulated clock starts on TestTime's day: 1.31 left EKS extended support at the start of 2026-11-26.
        assertThat(KubernetesVersions.day(cloud.clock().instant())).isAfterOrEqualTo(LocalDate.parse("2026-11-26"));

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
    void theDefaultVersionIsTheNewestInStandardSupportOnTheClocksDayAndTheSimulatedEksAcceptsIt() {
        var state = handlers.start(
                "{\"cluster\": {\"mode\": \"create\", \"nodeGroup\": {\"instanceType\": \"c5.xlarge\","
                        + " \"nodes\": 1}}, \"training\": {\"workers\": 1}}",
                "default-version");

        String version = state.at("/spec/cluster/kubernetesVersion").asText();
        assertThat(version).isEqualTo(TestTime.kubernetesVersion()).isEqualTo("1.36");
        var created = cloud.clients().eks().createCluster(r -> r.name("v")
                .version(version)
                .roleArn("arn:aws:iam::000000000000:role/x")
                .resourcesVpcConfig(v -> v.subnetIds("subnet-a", "subnet-b")));
        assertThat(created.cluster().version()).isEqualTo(version);
    }
}
