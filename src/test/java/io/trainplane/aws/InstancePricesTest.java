package io.trainplane.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.spec.NodeGroupSpec;
import io.trainplane.spec.RunSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a node costs an hour, on demand and on Spot, at the prices the plan uses. */
class InstancePricesTest {
    final InstancePrices table = InstancePrices.load(io.trainplane.aws.RunPrices.DEFAULT_REGION);

    @Test
    void aDiversifiedSpotNodeCostsTheHighestSpotPriceOfItsTypes() throws Exception {
        NodeGroupSpec group = RunSpecs.parse(Files.readString(Path.of("examples/spot-diversified.json")))
                .cluster()
                .nodeGroup();
        assertThat(group.types()).hasSizeGreaterThan(1);
        double highest = group.types().stream()
                .mapToDouble(t -> table.spotPerHour().get(t))
                .max()
                .orElseThrow();
        assertThat(table.nodePerHour(group)).contains(highest);
        assertThat(highest).isLessThan(table.perHour(group.firstType()).orElseThrow());
    }

    @Test
    void onDemandIsTheTypesPriceAndATypeWithoutSpotPriceCountsAtItsOnDemandOne() throws Exception {
        NodeGroupSpec onDemand = RunSpecs.parse(Files.readString(Path.of("examples/quickstart.json")))
                .cluster()
                .nodeGroup();
        assertThat(table.nodePerHour(onDemand)).isEqualTo(table.perHour(onDemand.firstType()));

        NodeGroupSpec spot = RunSpecs.parse(Files.readString(Path.of("examples/spot-diversified.json")))
                .cluster()
                .nodeGroup();
        String first = spot.firstType();
        InstancePrices noSpotForFirst = new InstancePrices(
                table.region(),
                table.date(),
                table.onDemandPerHour(),
                Map.of(spot.types().get(1), 0.01));
        assertThat(noSpotForFirst.nodePerHour(spot))
                .contains(table.perHour(first).orElseThrow());

        InstancePrices unpriced = new InstancePrices(table.region(), table.date(), Map.of(), Map.of());
        assertThat(unpriced.nodePerHour(spot)).isEmpty();
    }
}
