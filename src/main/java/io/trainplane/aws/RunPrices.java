package io.trainplane.aws;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The prices of everything a run uses, from the same table {@code plan} prices its estimate with
 * ({@code src/main/resources/prices/<region>.json}), so that a run's actual cost and its plan agree
 * on prices. The EKS control plane costs {@code eksControlPlanePerHour} in standard support and
 * {@code eksExtendedSupportControlPlanePerHour} (in total, not on top) in extended support
 * (https://aws.amazon.com/eks/pricing/). {@code spotDate} is the day of the typical Spot prices,
 * which change by the hour and by Availability Zone (the file's {@code spotSource} says so).
 * {@code fsxLustrePerGbMonth} prices FSx for Lustre SSD storage by deployment type, and for the
 * persistent ones by throughput per TiB: keys {@code SCRATCH_2}, {@code PERSISTENT_1/50}
 * (https://aws.amazon.com/fsx/lustre/pricing/). {@code usage}: root volumes, logs, NAT, data
 * transfer and S3 ({@link UsagePrices}).
 */
public record RunPrices(
        InstancePrices instances,
        String spotDate,
        double eksControlPlanePerHour,
        double eksExtendedSupportControlPlanePerHour,
        double efsStoragePerGbMonth,
        double efsElasticReadPerGb,
        double efsElasticWritePerGb,
        java.util.Map<String, Double> fsxLustrePerGbMonth,
        double stepFunctionsPer1000Transitions,
        double lambdaPerGbSecond,
        UsagePrices usage) {
    public RunPrices {
        fsxLustrePerGbMonth = java.util.Map.copyOf(fsxLustrePerGbMonth);
    }

    /**
     * The price of a GB-month of FSx for Lustre storage of the deployment type ({@code SCRATCH_2},
     * …) at {@code throughput} MB/s per TiB (null for scratch), or null when the table has none.
     */
    public Double fsxLustrePerGbMonth(String deploymentType, Integer throughput) {
        return fsxLustrePerGbMonth.get(throughput == null ? deploymentType : deploymentType + "/" + throughput);
    }

    /** The price of a GB-month of the FSx for Lustre file system {@code volume} describes. */
    public Double fsxLustrePerGbMonth(io.trainplane.spec.VolumeSpec volume) {
        return fsxLustrePerGbMonth(volume.lustreDeploymentType().name(), volume.perUnitStorageThroughput());
    }

    /** The Region plans are priced for when nothing names one (no AWS_REGION), as the AWS CLI's examples. */
    public static final String DEFAULT_REGION = "us-east-1";

    /**
     * The prices of {@code region}: its table when the snapshot has one; else the services' prices
     * of {@link #DEFAULT_REGION} with no instance prices at all, so that every instance line of a
     * plan is unpriced (and its total says it is incomplete) rather than priced at another Region's rates.
     */
    public static RunPrices forRegion(String region) {
        if (RunPrices.class.getResource("/prices/" + region + ".json") != null) {
            return load(region);
        }
        RunPrices services = load(DEFAULT_REGION);
        return services.withInstances(
                new InstancePrices(region, services.date(), java.util.Map.of(), java.util.Map.of()));
    }

    /**
     * The Region a plan is priced for on this machine: {@code AWS_REGION}, else
     * {@code AWS_DEFAULT_REGION} (the variables the SDKs and the AWS CLI read), else {@link #DEFAULT_REGION}.
     */
    public static String regionOf(java.util.Map<String, String> environment) {
        for (String name : java.util.List.of("AWS_REGION", "AWS_DEFAULT_REGION")) {
            String region = environment.get(name);
            if (region != null && !region.isBlank()) {
                return region.trim();
            }
        }
        return DEFAULT_REGION;
    }

    /** The table of {@code region}; IllegalArgumentException when none is shipped. */
    public static RunPrices load(String region) {
        try (InputStream in = RunPrices.class.getResourceAsStream("/prices/" + region + ".json")) {
            if (in == null) {
                throw new IllegalArgumentException("no price table for region " + region);
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static RunPrices parse(String json) {
        JsonNode n = Json.read(json);
        return new RunPrices(
                InstancePrices.parse(json),
                n.path("spotDate").asText(),
                n.path("eksControlPlanePerHour").asDouble(),
                n.path("eksExtendedSupportControlPlanePerHour").asDouble(),
                n.path("efsStoragePerGbMonth").asDouble(),
                n.path("efsElasticReadPerGb").asDouble(),
                n.path("efsElasticWritePerGb").asDouble(),
                fsxPrices(n.path("fsxLustrePerGbMonth")),
                n.path("stepFunctionsPer1000Transitions").asDouble(),
                n.path("lambdaPerGbSecond").asDouble(),
                UsagePrices.parse(n));
    }

    private static java.util.Map<String, Double> fsxPrices(JsonNode table) {
        java.util.Map<String, Double> prices = new java.util.TreeMap<>();
        table.properties().forEach(e -> prices.put(e.getKey(), e.getValue().asDouble()));
        return prices;
    }

    public String region() {
        return instances.region();
    }

    /** The day of the on-demand prices. */
    public String date() {
        return instances.date();
    }

    /** The on-demand price of an instance type, or null when the table does not list it. */
    public Double instancePerHour(String instanceType) {
        return instances.onDemandPerHour().get(instanceType);
    }

    /** The typical Spot price of an instance type, or null when the table does not list it. */
    public Double spotPerHour(String instanceType) {
        return instances.spotPerHour().get(instanceType);
    }

    /**
     * What an instance-hour of a Capacity Block of {@code instanceType} costs (its offering's
     * UpfrontFee over its instances and hours), or null: only a live lookup knows one.
     */
    public Double capacityBlockPerHour(String instanceType) {
        return instances.capacityBlockPerHour().get(instanceType);
    }

    /** These prices with other instance prices (a table missing some, in tests of what then happens). */
    public RunPrices withInstances(InstancePrices other) {
        return withInstances(other, spotDate);
    }

    /** These prices with other instance prices, their Spot prices of {@code otherSpotDate} (a live lookup's). */
    public RunPrices withInstances(InstancePrices other, String otherSpotDate) {
        return new RunPrices(
                other,
                otherSpotDate,
                eksControlPlanePerHour,
                eksExtendedSupportControlPlanePerHour,
                efsStoragePerGbMonth,
                efsElasticReadPerGb,
                efsElasticWritePerGb,
                fsxLustrePerGbMonth,
                stepFunctionsPer1000Transitions,
                lambdaPerGbSecond,
                usage);
    }

    /** These prices with other usage prices (a table missing some, in tests of what then happens). */
    public RunPrices withUsage(UsagePrices other) {
        return new RunPrices(
                instances,
                spotDate,
                eksControlPlanePerHour,
                eksExtendedSupportControlPlanePerHour,
                efsStoragePerGbMonth,
                efsElasticReadPerGb,
                efsElasticWritePerGb,
                fsxLustrePerGbMonth,
                stepFunctionsPer1000Transitions,
                lambdaPerGbSecond,
                other);
    }

    /** Whether the snapshot has this Region's instance prices. */
    public boolean pricesInstances() {
        return !instances.onDemandPerHour().isEmpty();
    }

    /** "us-east-1 prices of 2026-11-01": which table priced a cost. */
    public String describe() {
        return pricesInstances()
                ? instances.region() + " prices of " + instances.date()
                : instances.region() + " (no EC2 prices in the snapshot: instances unpriced)";
    }
}
