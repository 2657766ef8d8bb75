package io.trainplane.local.sim;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The simulated Price List's and Spot price history's own answers: per Region, the on-demand price
 * an hour (Linux, shared tenancy) and a typical Spot price of each instance type, from the twin's
 * copy of AWS's prices ({@code src/main/resources/io/trainplane/local/sim/prices/<region>.json};
 * each file's {@code source} says where they come from). None of it is read from the product's
 * price tables, which the run's ceilings are judged by.
 */
final class PriceListAnswers {
    static final String FOLDER = "/io/trainplane/local/sim/prices/";

    /** One Region's prices: on demand and Spot, by instance type. */
    record RegionPrices(Map<String, Double> onDemand, Map<String, Double> spot) {}

    private PriceListAnswers() {}

    /** The Region's prices; empty for a Region the twin has no prices of. */
    static Optional<RegionPrices> of(String region) {
        try (InputStream in = PriceListAnswers.class.getResourceAsStream(FOLDER + region + ".json")) {
            if (in == null) {
                return Optional.empty();
            }
            JsonNode n = Json.read(in);
            return Optional.of(new RegionPrices(perHour(n.path("instances")), perHour(n.path("spotInstances"))));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, Double> perHour(JsonNode prices) {
        Map<String, Double> perHour = new TreeMap<>();
        prices.properties().forEach(e -> perHour.put(e.getKey(), e.getValue().asDouble()));
        return Map.copyOf(perHour);
    }
}
