package io.trainplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.InstancePrices;
import io.trainplane.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Prices shipped in {@code src/main/resources/prices/<region>.json}: on-demand, and typical Spot
 * prices of {@code spotDate} (Spot prices change by the hour and by Availability Zone: the file's
 * {@code spotSource} says so). An EKS control plane
 * costs {@code eksControlPlanePerHour} while its Kubernetes version is in standard support and
 * {@code eksExtendedSupportControlPlanePerHour} (in total, not on top) while it is in extended support.
 */
record PriceTable(
        String region,
        String date,
        Map<String, Double> instancesPerHour,
        String spotDate,
        Map<String, Double> spotInstancesPerHour,
        double eksControlPlanePerHour,
        double eksExtendedSupportControlPlanePerHour,
        double efsStoragePerGbMonth,
        double efsElasticReadPerGb,
        double efsElasticWritePerGb,
        double stepFunctionsPer1000Transitions,
        double lambdaPerGbSecond) {

    static final String DEFAULT_REGION = "us-east-1";

    static PriceTable load(String region) {
        try (InputStream in = PriceTable.class.getResourceAsStream("/prices/" + region + ".json")) {
            if (in == null) {
                throw new UserInputException("no price table for region " + region);
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static PriceTable parse(String json) {
        JsonNode n = Json.read(json);
        InstancePrices instances = InstancePrices.parse(json);
        return new PriceTable(
                n.path("region").asText(),
                n.path("date").asText(),
                instances.onDemandPerHour(),
                n.path("spotDate").asText(),
                instances.spotPerHour(),
                n.path("eksControlPlanePerHour").asDouble(),
                n.path("eksExtendedSupportControlPlanePerHour").asDouble(),
                n.path("efsStoragePerGbMonth").asDouble(),
                n.path("efsElasticReadPerGb").asDouble(),
                n.path("efsElasticWritePerGb").asDouble(),
                n.path("stepFunctionsPer1000Transitions").asDouble(),
                n.path("lambdaPerGbSecond").asDouble());
    }

    /** The instance prices alone, as the workflow reads them. */
    InstancePrices instances() {
        return new InstancePrices(region, date, instancesPerHour, spotInstancesPerHour);
    }

    /** The typical Spot price of an instance type, or null when the table does not list it. */
    Double spotPerHour(String instanceType) {
        return spotInstancesPerHour.get(instanceType);
    }

    /** The on-demand price of an instance type, or null when the table does not list it. */
    Double instancePerHour(String instanceType) {
        return instancesPerHour.get(instanceType);
    }
}
