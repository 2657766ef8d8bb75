package io.trainplane.aws.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.TestTime;
import io.trainplane.aws.RunPrices;
import io.trainplane.core.Json;
import io.trainplane.runs.CostEstimate;
import io.trainplane.spec.InstanceShapes;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.RunSpecs;
import io.trainplane.spec.SpecProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * What EC2 and the Price List answer today outranks the offline snapshot: a type EC2 no longer
 * describes as the catalog does is refused with EC2's figures, a type it does not know is refused,
 * and live prices (On-Demand, Spot, a Capacity Block's offering) price the run.
 */
class LiveInstanceFactsTest {
    static final LocalDate DAY = LocalDate.parse("2026-11-27");

    /** A catalog that answers what a test sets, and counts what it is asked. */
    static final class Answers implements InstanceCatalog {
        final Map<String, InstanceShapes.Shape> shapes = new TreeMap<>();
        final Map<String, Double> onDemand = new TreeMap<>();
        final Map<String, Double> spot = new TreeMap<>();
        Optional<CapacityBlockOffering> block = Optional.empty();
        final List<String> asked = new ArrayList<>();

        @Override
        public Map<String, InstanceShapes.Shape> describeInstanceTypes(Collection<String> types) {
            asked.add("DescribeInstanceTypes " + types);
            Map<String, InstanceShapes.Shape> found = new TreeMap<>();
            types.forEach(t -> Optional.ofNullable(shapes.get(t)).ifPresent(s -> found.put(t, s)));
            return found;
        }

        @Override
        public Map<String, Double> onDemandPerHour(String region, Collection<String> types) {
            asked.add("GetProducts " + region + " " + types);
            Map<String, Double> found = new TreeMap<>(onDemand);
            found.keySet().retainAll(types);
            return found;
        }

        @Override
        public Map<String, Double> spotPerHour(Collection<String> types, Instant since) {
            asked.add("DescribeSpotPriceHistory " + types);
            return spot;
        }

        @Override
        public Optional<CapacityBlockOffering> capacityBlockOffering(String type, int count, int hours) {
            asked.add("DescribeCapacityBlockOfferings " + type + " " + count + " " + hours);
            return block;
        }

        Answers knowing(String... types) {
            for (String t : types) {
                shapes.put(t, InstanceShapes.of(t).orElseThrow());
            }
            return this;
        }
    }

    static ObjectNode example(String name) throws IOException {
        return (ObjectNode) Json.read(Files.readString(Path.of("examples", name + ".json")));
    }

    static RunSpec run(ObjectNode spec) {
        return RunSpecs.parse(Json.write(spec), DAY, "us-east-1");
    }

    @Test
    void aTypeEc2DescribesOtherwiseTodayIsRefusedWithEc2sFigures() throws IOException {
        Answers ec2 = new Answers().knowing("m5.large");
        InstanceShapes.Shape catalogs = InstanceShapes.of("g5.12xlarge").orElseThrow();
        // EC2's answer of today differs from the offline catalog: two GPUs, no EFA.
        ec2.shapes.put(
                "g5.12xlarge",
                new InstanceShapes.Shape(
                        "g5.12xlarge",
                        48,
                        196608,
                        2,
                        catalogs.accelerator(),
                        catalogs.gpuMemoryMiB(),
                        0,
                        null,
                        0,
                        InstanceShapes.X86,
                        catalogs.maxPods(),
                        catalogs.usageClasses()));
        ObjectNode spec = example("quickstart");
        ((ObjectNode) spec.at("/cluster/nodeGroup"))
                .put("instanceType", "g5.12xlarge")
                .put("efa", true);
        spec.with("training").put("gpusPerWorker", 4);

        var checked = LiveInstanceFacts.check(run(spec), RunPrices.forRegion("us-east-1"), ec2, TestTime.START, false);

        assertThat(checked.problems())
                .extracting(SpecProblem::pointer)
                .containsExactly("/cluster/nodeGroup/gpusPerNode", "/cluster/nodeGroup/efa");
        assertThat(checked.problems().getFirst().message())
                .contains("is 4, but EC2 describes g5.12xlarge: 2 NVIDIA A10G GPUs")
                .contains("ec2:DescribeInstanceTypes, 2026-11-27")
                .contains("offline EC2 catalog of " + InstanceShapes.date());
        assertThat(ec2.asked).containsExactly("DescribeInstanceTypes [g5.12xlarge]");
    }

    @Test
    void aTypeEc2DoesNotKnowIsRefusedAndNothingIsPriced() throws IOException {
        Answers ec2 = new Answers();
        var checked = LiveInstanceFacts.check(
                run(example("quickstart")), RunPrices.forRegion("us-east-1"), ec2, TestTime.START, true);

        assertThat(checked.problems()).singleElement().satisfies(p -> {
            assertThat(p.pointer()).isEqualTo("/cluster/nodeGroup/instanceType");
            assertThat(p.message()).contains("EC2 in us-east-1 does not know instance type");
        });
        assertThat(ec2.asked).noneMatch(a -> a.startsWith("GetProducts"));
    }

    @Test
    void livePricesPriceTheRunInARegionTheSnapshotDoesNot() throws IOException {
        String type = run(example("quickstart")).cluster().nodeGroup().firstType();
        Answers ec2 = new Answers().knowing(type);
        ec2.onDemand.put(type, 1.5);
        ec2.onDemand.put("m5.large", 0.1);
        RunPrices snapshot = RunPrices.forRegion("ap-southeast-4");
        assertThat(snapshot.pricesInstances())
                .as("a Region the snapshot has no EC2 prices for")
                .isFalse();

        var checked = LiveInstanceFacts.check(run(example("quickstart")), snapshot, ec2, TestTime.START, true);

        assertThat(checked.problems()).isEmpty();
        assertThat(checked.prices().instancePerHour(type)).isEqualTo(1.5);
        assertThat(checked.prices().date()).isEqualTo("2026-11-27 (pricing:GetProducts)");
        CostEstimate cost = CostEstimate.of(run(example("quickstart")), checked.prices(), DAY);
        assertThat(cost.unpriced()).isEmpty();
        assertThat(ec2.asked).contains("GetProducts ap-southeast-4 [" + type + ", m5.large]");
    }

    @Test
    void spotNodesArePricedFromTodaysSpotHistory() throws IOException {
        ObjectNode spec = example("quickstart");
        ((ObjectNode) spec.at("/cluster/nodeGroup")).put("capacityType", "SPOT");
        String type = run(spec).cluster().nodeGroup().firstType();
        Answers ec2 = new Answers().knowing(type);
        ec2.spot.put(type, 0.123);

        var checked = LiveInstanceFacts.check(run(spec), RunPrices.forRegion("us-east-1"), ec2, TestTime.START, true);

        assertThat(checked.prices().spotPerHour(type)).isEqualTo(0.123);
        assertThat(checked.prices().spotDate()).startsWith("2026-11-27");
    }

    @Test
    void aCapacityBlockIsPricedAtItsCheapestOfferingAndTheCeilingCanJudgeIt() throws IOException {
        ObjectNode spec = example("multi-node-efa");
        Answers ec2 = new Answers().knowing("p4d.24xlarge");
        RunSpec run = run(spec);
        RunPrices snapshot = RunPrices.forRegion("us-east-1");
        CostEstimate offline = CostEstimate.of(run, snapshot, DAY);
        assertThat(offline.unpriced()).anyMatch(line -> line.contains("Capacity Block"));

        // maxRunHours 4 asks for a one-day block; 2 × p4d.24xlarge for 24 h at $1,200 is $25 an instance-hour.
        ec2.block = Optional.of(new InstanceCatalog.CapacityBlockOffering("p4d.24xlarge", 2, 24, 1200));
        var checked = LiveInstanceFacts.check(run, snapshot, ec2, TestTime.START, true);
        CostEstimate live = CostEstimate.of(run, checked.prices(), DAY);

        assertThat(ec2.asked).contains("DescribeCapacityBlockOfferings p4d.24xlarge 2 24");
        assertThat(live.unpriced()).isEmpty();
        assertThat(live.ceilingWorstCase()).isNotNull().isGreaterThan(2 * 4 * 25.0);
        assertThat(live.assumptions()).anyMatch(a -> a.contains("$25.00 an instance-hour"));
    }

    @Test
    void blocksLastWholeDaysFromOneToFourteen() {
        assertThat(LiveInstanceFacts.blockHours(1)).isEqualTo(24);
        assertThat(LiveInstanceFacts.blockHours(25)).isEqualTo(48);
        assertThat(LiveInstanceFacts.blockHours(1000)).isEqualTo(14 * 24);
    }
}
