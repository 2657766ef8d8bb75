package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.TestTime;
import io.trainplane.aws.catalog.InstanceCatalog;
import io.trainplane.core.Json;
import io.trainplane.spec.RunSpecs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * StartRun asks the simulated account's EC2 and Price List about the run's instance types, with
 * StartRunRole's permissions, before anything is created: a refusal ends the run there, a throttle
 * is asked again, and a Capacity Block's offering prices the worst case the stack's MaxRunCostUsd
 * judges.
 */
class LiveInstanceFactsRunTest {
    static ObjectNode example(String name) throws IOException {
        return (ObjectNode) Json.read(Files.readString(Path.of("examples", name + ".json")));
    }

    static RunReport run(LocalCloud cloud, Faults faults, ObjectNode spec, String runId) {
        return new LocalRun(cloud, faults, e -> {}).execute(RunSpecs.normalize(Json.write(spec)), runId);
    }

    @Test
    void startRunAsksEc2AndThePriceListWithItsOwnRole() throws IOException {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunReport r = run(cloud, Faults.none(), example("quickstart"), "quickstart");

            assertThat(r.status()).isEqualTo("SUCCEEDED");
            // The local stack's MaxRunCostUsd (template.yaml's default) needs the run priced.
            assertThat(cloud.calls().counts())
                    .containsEntry("ec2:DescribeInstanceTypes", 1)
                    .containsEntry("pricing:GetProducts", 2);
        }
    }

    @Test
    void aRefusalEndsTheRunInStartRunBeforeAnythingIsCreatedAndAThrottleIsAskedAgain() throws IOException {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunReport r = run(
                    cloud,
                    new Faults(Set.of(), Set.of(), Set.of("ec2:DescribeInstanceTypes"), Set.of()),
                    example("quickstart"),
                    "quickstart");

            assertThat(r.status()).isEqualTo("FAILED");
            assertThat(r.failedState()).isEqualTo("StartRun");
            assertThat(r.error()).isEqualTo("InstanceCatalogRefused");
            assertThat(r.cause()).contains("ec2:DescribeInstanceTypes");
            assertThat(r.resources().created()).isEmpty();
            assertThat(cloud.inventory()).isEmpty();
        }
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunReport r = run(
                    cloud,
                    new Faults(Set.of(), Set.of(), Set.of(), Set.of("pricing:GetProducts")),
                    example("quickstart"),
                    "quickstart");

            assertThat(r.status()).isEqualTo("SUCCEEDED");
            assertThat(cloud.calls().counts()).containsEntry("pricing:GetProducts", 3);
        }
    }

    @Test
    void aCapacityBlocksOfferingPricesTheWorstCaseTheStackJudges() throws IOException {
        ObjectNode spec = example("multi-node-efa");
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            // maxRunHours 4: a one-day block of the run's 2 nodes, far dearer than On-Demand.
            cloud.instanceCatalog().offer(new InstanceCatalog.CapacityBlockOffering("p4d.24xlarge", 2, 24, 48_000));
            RunReport r = run(cloud, Faults.none(), spec, "cifar10-p4d-efa");

            assertThat(r.status()).isEqualTo("FAILED");
            assertThat(r.failedState()).isEqualTo("StartRun");
            assertThat(r.cause()).contains("MaxRunCostUsd");
            assertThat(cloud.calls().counts()).containsEntry("ec2:DescribeCapacityBlockOfferings", 1);
            assertThat(cloud.inventory()).isEmpty();
        }
    }
}
