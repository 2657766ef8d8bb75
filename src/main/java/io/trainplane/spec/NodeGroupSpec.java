package io.trainplane.spec;

import java.util.List;
import java.util.Objects;

/**
 * The managed node group of a cluster created for the run. Its instance types are given either as
 * one {@code instanceType} or, for a SPOT group diversified across pools, as a list
 * {@code instanceTypes} of several; exactly one of the two is set. A list of one is the same node
 * group as that one type and is kept as {@code instanceType}, so its normalized form (stored and
 * hashed) is the one a spec with {@code instanceType} has. {@code diskGiB} is each node's root
 * volume ({@link NodeDisk}).
 */
public record NodeGroupSpec(
        String instanceType,
        List<String> instanceTypes,
        int nodes,
        int gpusPerNode,
        CapacityType capacityType,
        String capacityReservationId,
        boolean efa,
        int diskGiB) {
    public NodeGroupSpec {
        if (instanceTypes != null && instanceTypes.size() == 1 && instanceType == null) {
            instanceType = instanceTypes.getFirst();
            instanceTypes = null;
        }
        if (instanceType == null && instanceTypes == null) {
            throw new NullPointerException("instanceType");
        }
        if (instanceType != null && instanceTypes != null) {
            throw new IllegalArgumentException("a node group has instanceType or instanceTypes, not both");
        }
        if (instanceTypes != null) {
            instanceTypes = List.copyOf(instanceTypes);
        }
        Objects.requireNonNull(capacityType, "capacityType");
        if (diskGiB == 0) {
            diskGiB = NodeDisk.EKS_DEFAULT_GIB; // not given: EKS's own
        }
        if (diskGiB < NodeDisk.EKS_DEFAULT_GIB || diskGiB > NodeDisk.MAX_GIB) {
            throw new IllegalArgumentException(
                    "diskGiB " + diskGiB + " is outside " + NodeDisk.EKS_DEFAULT_GIB + " to " + NodeDisk.MAX_GIB);
        }
    }

    /** A node group of these types, with EKS's default root volume. */
    public NodeGroupSpec(
            String instanceType,
            List<String> instanceTypes,
            int nodes,
            int gpusPerNode,
            CapacityType capacityType,
            String capacityReservationId,
            boolean efa) {
        this(
                instanceType,
                instanceTypes,
                nodes,
                gpusPerNode,
                capacityType,
                capacityReservationId,
                efa,
                NodeDisk.EKS_DEFAULT_GIB);
    }

    /** A node group of one instance type. */
    public NodeGroupSpec(
            String instanceType,
            int nodes,
            int gpusPerNode,
            CapacityType capacityType,
            String capacityReservationId,
            boolean efa) {
        this(instanceType, null, nodes, gpusPerNode, capacityType, capacityReservationId, efa);
    }

    /** Every instance type the node group may launch, in the order given; one unless it is a diversified SPOT group. */
    public List<String> types() {
        return instanceTypes == null ? List.of(instanceType) : instanceTypes;
    }

    /**
     * The first instance type listed. All listed types share GPUs, accelerator, EFA interfaces and
     * architecture (the spec's rules), so what depends on those alone (AMI type, EFA interfaces)
     * reads it; a Capacity Block or a reservation has exactly one type.
     */
    public String firstType() {
        return types().getFirst();
    }
}
