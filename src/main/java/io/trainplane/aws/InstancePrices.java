package io.trainplane.aws;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import io.trainplane.spec.CapacityType;
import io.trainplane.spec.NodeGroupSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The instances' prices per hour of the price table {@code plan} uses (shipped in
 * {@code src/main/resources/prices/<region>.json}: {@code instances} on demand, {@code spotInstances}
 * typical Spot prices), read here once for the plan and for what the workflow prices at run time
 * (the training an interruption lost), so that both agree.
 */
public record InstancePrices(
        String region,
        String date,
        Map<String, Double> onDemandPerHour,
        Map<String, Double> spotPerHour,
        Map<String, Double> capacityBlockPerHour) {
    public InstancePrices {
        onDemandPerHour = Map.copyOf(onDemandPerHour);
        spotPerHour = Map.copyOf(spotPerHour);
        capacityBlockPerHour = Map.copyOf(capacityBlockPerHour);
    }

    /**
     * Prices without Capacity Block rates: the offline table has none (AWS quotes a block per
     * offering, {@code ec2:DescribeCapacityBlockOfferings}; a run looks them up live).
     */
    public InstancePrices(
            String region, String date, Map<String, Double> onDemandPerHour, Map<String, Double> spotPerHour) {
        this(region, date, onDemandPerHour, spotPerHour, Map.of());
    }

    /** The table of {@code region}; IllegalArgumentException when none is shipped. */
    public static InstancePrices load(String region) {
        try (InputStream in = InstancePrices.class.getResourceAsStream("/prices/" + region + ".json")) {
            if (in == null) {
                throw new IllegalArgumentException("no price table for region " + region);
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static InstancePrices parse(String json) {
        JsonNode n = Json.read(json);
        return new InstancePrices(
                n.path("region").asText(),
                n.path("date").asText(),
                perHour(n.path("instances")),
                perHour(n.path("spotInstances")));
    }

    private static Map<String, Double> perHour(JsonNode prices) {
        Map<String, Double> perHour = new TreeMap<>();
        prices.properties().forEach(e -> perHour.put(e.getKey(), e.getValue().asDouble()));
        return perHour;
    }

    /** The on-demand price of one instance of {@code instanceType} for an hour, empty when the table does not list it. */
    public Optional<Double> perHour(String instanceType) {
        return Optional.ofNullable(onDemandPerHour.get(instanceType));
    }

    /**
     * What one node of {@code group} costs an hour: on demand, its type's price; on Spot, the
     * highest typical Spot price of its listed types (EC2 picks among them), a type without one
     * counted at its on-demand price, the most Spot can cost. Empty when a type has no price at all.
     */
    public Optional<Double> nodePerHour(NodeGroupSpec group) {
        if (group.capacityType() != CapacityType.SPOT) {
            return perHour(group.firstType());
        }
        double highest = 0;
        for (String type : group.types()) {
            Double price = spotPerHour.getOrDefault(type, onDemandPerHour.get(type));
            if (price == null) {
                return Optional.empty();
            }
            highest = Math.max(highest, price);
        }
        return Optional.of(highest);
    }
}
