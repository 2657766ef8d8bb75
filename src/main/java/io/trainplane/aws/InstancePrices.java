package io.trainplane.aws;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The instances' on-demand prices per hour of the price table {@code plan} uses (shipped in
 * {@code src/main/resources/prices/<region>.json}, its {@code instances}), for what the workflow
 * prices at run time (the training an interruption lost) to agree with the plan.
 */
public record InstancePrices(String region, String date, Map<String, Double> onDemandPerHour) {
    /** The table the plan prices with. */
    public static final String PLAN_REGION = "us-east-1";

    public InstancePrices {
        onDemandPerHour = Map.copyOf(onDemandPerHour);
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
        Map<String, Double> instances = new TreeMap<>();
        n.path("instances")
                .properties()
                .forEach(e -> instances.put(e.getKey(), e.getValue().asDouble()));
        return new InstancePrices(n.path("region").asText(), n.path("date").asText(), instances);
    }

    /** The on-demand price of one instance of {@code instanceType} for an hour, empty when the table does not list it. */
    public Optional<Double> perHour(String instanceType) {
        return Optional.ofNullable(onDemandPerHour.get(instanceType));
    }
}
