package io.trainplane.local.sim;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The capacity reservations of the simulated account: On-Demand Capacity Reservations and
 * Capacity Blocks for ML, each for one instance type in one Availability Zone, as data. There is
 * no EC2 API to make them: the account has them from the start ({@link #stack}, tests). Cloud
 * Control reads them ({@code AWS::EC2::CapacityReservation}); EC2's launches into them, behind a
 * node group, follow their rules ({@link ReservationLaunches}).
 */
public final class SimulatedCapacity {
    /** The Capacity Block that examples/multi-node-efa.json names. */
    public static final String EXAMPLE_BLOCK = "cr-0123456789abcdef0";
    /** An On-Demand Capacity Reservation of the account, for tests: 4 × g5.12xlarge in us-east-1b. */
    public static final String STACK_ODCR = "cr-0fedcba9876543210";
    /** How long the example block lasts from the account's start (Capacity Blocks run 1 to 14 days, or longer in weeks). */
    public static final Duration EXAMPLE_BLOCK_LENGTH = Duration.ofDays(4);

    /**
     * A reservation as DescribeCapacityReservations describes it
     * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_CapacityReservation.html).
     * {@code reservationType} is {@code default} for an On-Demand Capacity Reservation and
     * {@code capacity-block} for a Capacity Block; {@code end} null means no end date.
     */
    public record Reservation(
            String id,
            String reservationType,
            String instanceType,
            int instanceCount,
            String zoneName,
            Instant start,
            Instant end) {
        public Reservation {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(instanceType, "instanceType");
            Objects.requireNonNull(zoneName, "zoneName");
            Objects.requireNonNull(start, "start");
        }

        public boolean capacityBlock() {
            return "capacity-block".equals(reservationType);
        }

        /**
         * Its state at {@code now}: a Capacity Block is {@code scheduled} before its start and
         * {@code expired} from its end (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-blocks-view.html);
         * an On-Demand Capacity Reservation is {@code active} from its creation until it expires
         * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-reservations-using.html).
         */
        public String state(Instant now) {
            if (now.isBefore(start)) {
                return capacityBlock() ? "scheduled" : "pending";
            }
            return end != null && !now.isBefore(end) ? "expired" : "active";
        }

        public boolean active(Instant now) {
            return "active".equals(state(now));
        }

        /** The zone's id in this account ({@link SimulatedNetwork#zoneId}). */
        public String zoneId() {
            return SimulatedNetwork.zoneId(zoneName);
        }

        public String arn() {
            return IamRequests.ARN + "ec2:" + IamRequests.REGIONAL + "capacity-reservation/" + id;
        }
    }

    /** Instances launched into a reservation on behalf of {@code owner} (a node group's ARN). */
    private record Use(String reservationId, int count) {}

    private final Map<String, Reservation> reservations = new LinkedHashMap<>();
    private final Map<String, Use> uses = new LinkedHashMap<>();

    /**
     * The stack's account, as it stands at {@code now}: the example Capacity Block (2 ×
     * p4d.24xlarge in us-east-1a, the zone of the stack's first subnet), active since an hour
     * before {@code now} for {@link #EXAMPLE_BLOCK_LENGTH}; and an On-Demand Capacity Reservation
     * without end date.
     */
    public static SimulatedCapacity stack(Instant now) {
        Instant start = now.minus(Duration.ofHours(1));
        return new SimulatedCapacity()
                .add(new Reservation(
                        EXAMPLE_BLOCK,
                        "capacity-block",
                        "p4d.24xlarge",
                        2,
                        "us-east-1a",
                        start,
                        start.plus(EXAMPLE_BLOCK_LENGTH)))
                .add(new Reservation(STACK_ODCR, "default", "g5.12xlarge", 4, "us-east-1b", start, null));
    }

    public synchronized SimulatedCapacity add(Reservation reservation) {
        reservations.put(reservation.id(), reservation);
        return this;
    }

    public synchronized Optional<Reservation> reservation(String id) {
        return Optional.ofNullable(id == null ? null : reservations.get(id));
    }

    public synchronized List<Reservation> all() {
        return List.copyOf(reservations.values());
    }

    /**
     * The instances a reservation can still take: "Launching an instance into a Capacity
     * Reservation reduces its available capacity by the number of instances launched"
     * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-reservations-launch.html).
     */
    public synchronized int available(String reservationId) {
        Reservation r = reservations.get(reservationId);
        if (r == null) {
            return 0;
        }
        int used = uses.values().stream()
                .filter(u -> u.reservationId().equals(reservationId))
                .mapToInt(Use::count)
                .sum();
        return Math.max(0, r.instanceCount() - used);
    }

    /** {@code owner}'s instances run in the reservation (again: replaces what it had). */
    synchronized void use(String reservationId, String owner, int count) {
        uses.put(owner, new Use(reservationId, count));
    }

    /** {@code owner}'s instances are terminating: their capacity is free again. */
    synchronized void release(String owner) {
        uses.remove(owner);
    }
}
