package io.trainplane.cli;

import io.trainplane.aws.InstancePrices;
import io.trainplane.aws.catalog.InstanceCatalog;
import io.trainplane.spec.InstanceShapes;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * EC2 and the Price List as the CLI's tests answer them, without a network: the offline catalog's
 * shapes and the Region's price table, each price times {@code factor} (so that a test tells a live
 * price from the snapshot's).
 */
record OfflineCatalog(double factor) implements InstanceCatalog {
    OfflineCatalog() {
        this(1);
    }

    @Override
    public Map<String, InstanceShapes.Shape> describeInstanceTypes(Collection<String> types) {
        Map<String, InstanceShapes.Shape> found = new TreeMap<>();
        types.forEach(t -> InstanceShapes.of(t).ifPresent(s -> found.put(t, s)));
        return found;
    }

    @Override
    public Map<String, Double> onDemandPerHour(String region, Collection<String> types) {
        Map<String, Double> prices = new TreeMap<>();
        InstancePrices table = InstancePrices.load(region);
        types.forEach(t -> table.perHour(t).ifPresent(p -> prices.put(t, p * factor)));
        return prices;
    }

    @Override
    public Map<String, Double> spotPerHour(Collection<String> types, Instant since) {
        return Map.of();
    }

    @Override
    public Optional<CapacityBlockOffering> capacityBlockOffering(String type, int count, int hours) {
        return Optional.empty();
    }
}
