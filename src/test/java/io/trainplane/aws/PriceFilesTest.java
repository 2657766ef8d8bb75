package io.trainplane.aws;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import io.trainplane.spec.InstanceShapes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every Region's price file prices the same things as us-east-1's (a key missing would read as a
 * price of 0), only instance types of the EC2 catalog that its Region sells, and Spot never above
 * on demand.
 */
class PriceFilesTest {
    private static final Path PRICES = Path.of("src/main/resources/prices");

    private static List<Path> files() throws IOException {
        try (Stream<Path> files = Files.list(PRICES)) {
            return files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
        }
    }

    private static Set<String> keys(JsonNode n) {
        Set<String> keys = new TreeSet<>();
        n.fieldNames().forEachRemaining(keys::add);
        keys.remove("servicesSource");
        return keys;
    }

    @Test
    void everyRegionPricesWhatUsEast1Prices() throws IOException {
        JsonNode east = Json.read(Files.readString(PRICES.resolve("us-east-1.json")));
        List<Path> files = files();
        assertThat(files).hasSizeGreaterThanOrEqualTo(8);
        for (Path file : files) {
            JsonNode table = Json.read(Files.readString(file));
            String region = file.getFileName().toString().replace(".json", "");
            assertThat(table.path("region").asText()).as(file.toString()).isEqualTo(region);
            assertThat(keys(table)).as(file.toString()).isEqualTo(keys(east));
            assertThat(InstanceShapes.knowsRegion(region)).as(region).isTrue();
            List<String> wrong = new ArrayList<>();
            table.path("instances").properties().forEach(e -> {
                if (!InstanceShapes.offeredIn(e.getKey(), region)
                        || !(e.getValue().asDouble() > 0)) {
                    wrong.add(e.getKey() + " " + e.getValue());
                }
                JsonNode spot = table.path("spotInstances").path(e.getKey());
                if (spot.isNumber() && spot.asDouble() > e.getValue().asDouble()) {
                    wrong.add(e.getKey() + " spot " + spot + " above on demand " + e.getValue());
                }
            });
            assertThat(wrong).as(file.toString()).isEmpty();
            RunPrices prices = RunPrices.load(region);
            assertThat(prices.eksControlPlanePerHour()).isEqualTo(0.10);
            assertThat(prices.pricesInstances()).isTrue();
        }
    }
}
