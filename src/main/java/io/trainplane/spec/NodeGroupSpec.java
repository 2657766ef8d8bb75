package io.trainplane.spec;

import java.util.Objects;

/** The managed node group of a cluster created for the run. */
public record NodeGroupSpec(
        String instanceType,
        int nodes,
        int gpusPerNode,
        CapacityType capacityType,
        String capacityReservationId,
        boolean efa) {
    public NodeGroupSpec {
        Objects.requireNonNull(instanceType, "instanceType");
        Objects.requireNonNull(capacityType, "capacityType");
    }
}
