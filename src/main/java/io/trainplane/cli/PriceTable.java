package io.trainplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.InstancePrices;
import io.trainplane.aws.RunPrices;
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

    /** The table as the workflow reads it too ({@link RunPrices}), so that a run's actual cost and its plan agree. */
    static PriceTable parse(String json) {
        JsonNode n = Json.read(json);
        RunPrices run = RunPrices.parse(json);
        return new PriceTable(
                n.path("region").asText(),
                n.path("date").asText(),
                run.instances().onDemandPerHour(),
                n.path("spotDate").asText(),
                run.instances().spotPerHour(),
                run.eksControlPlanePerHour(),
                run.eksExtendedSupportControlPlanePerHour(),
                run.efsStoragePerGbMonth(),
                run.efsElasticReadPerGb(),
                run.efsElasticWritePerGb(),
                run.stepFunctionsPer1000Transitions(),
                run.lambdaPerGbSecond());
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
