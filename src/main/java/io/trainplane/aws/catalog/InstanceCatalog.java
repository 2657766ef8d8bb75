package io.trainplane.aws.catalog;

import io.trainplane.spec.InstanceShapes;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * What a run asks EC2 and the AWS Price List of its instance types before anything is created:
 * their facts today (the offline catalog may be older), their prices in the stack's Region, and a
 * Capacity Block's price. {@link AwsInstanceCatalog} asks the APIs; the simulated account answers
 * from its own tables.
 */
public interface InstanceCatalog {
    /** ec2:DescribeInstanceTypes: the facts of each type EC2 knows; a type it does not know is left out. */
    Map<String, InstanceShapes.Shape> describeInstanceTypes(Collection<String> types);

    /**
     * pricing:GetProducts: the On-Demand price an hour in {@code region} (Linux, shared tenancy, no
     * pre-installed software) of each type the Price List prices.
     */
    Map<String, Double> onDemandPerHour(String region, Collection<String> types);

    /**
     * ec2:DescribeSpotPriceHistory (Linux/UNIX) since {@code since}: for each type, the median over
     * Availability Zones of each zone's latest price, as the offline table's typical Spot prices.
     */
    Map<String, Double> spotPerHour(Collection<String> types, Instant since);

    /**
     * ec2:DescribeCapacityBlockOfferings: the cheapest block of {@code count} × {@code type} lasting
     * {@code hours}; empty when none is offered.
     */
    Optional<CapacityBlockOffering> capacityBlockOffering(String type, int count, int hours);

    /** A Capacity Block on offer (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_CapacityBlockOffering.html). */
    record CapacityBlockOffering(String instanceType, int instanceCount, int durationHours, double upfrontFee) {
        /** What an instance-hour of the block costs: the fee over its instances and hours. */
        public double perInstanceHour() {
            return upfrontFee / ((double) instanceCount * durationHours);
        }
    }

    /** An error EC2 or the Price List answered with, not a transient one: its service, code and message. */
    final class CatalogError extends RuntimeException {
        private final String code;

        public CatalogError(String service, String code, String message) {
            super(service + " " + code + ": " + message);
            this.code = code;
        }

        public String code() {
            return code;
        }
    }
}
