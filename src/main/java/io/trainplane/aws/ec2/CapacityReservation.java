package io.trainplane.aws.ec2;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * A capacity reservation as Cloud Control reads it ({@code AWS::EC2::CapacityReservation}, the
 * CloudFormation schema's property names:
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-ec2-capacityreservation.html).
 * {@code reservationType} is {@code capacity-block} for a Capacity Block for ML, {@code default}
 * for an On-Demand Capacity Reservation; {@code state} is EC2's ({@code active}, {@code scheduled},
 * {@code expired}, …).
 */
public record CapacityReservation(
        String id,
        String availabilityZone,
        String instanceType,
        int totalInstanceCount,
        String state,
        String reservationType,
        Optional<String> startDate,
        Optional<String> endDate) {
    public static final String TYPE = "AWS::EC2::CapacityReservation";

    public boolean capacityBlock() {
        return "capacity-block".equals(reservationType);
    }

    public boolean active() {
        return "active".equals(state);
    }

    /** "Capacity Block cr-…" or "capacity reservation cr-…", for messages. */
    public String describe() {
        return (capacityBlock() ? "Capacity Block " : "capacity reservation ") + id;
    }

    static CapacityReservation fromProperties(String id, JsonNode p) {
        int total = p.hasNonNull("TotalInstanceCount")
                ? p.get("TotalInstanceCount").asInt()
                : p.path("InstanceCount").asInt();
        return new CapacityReservation(
                id,
                p.path("AvailabilityZone").asText(null),
                p.path("InstanceType").asText(null),
                total,
                p.path("State").asText("active"),
                p.path("ReservationType").asText("default"),
                Optional.ofNullable(p.path("StartDate").asText(null)),
                Optional.ofNullable(p.path("EndDate").asText(null)));
    }
}
