package io.trainplane.spec;

import java.util.List;

/**
 * FSx for Lustre's deployment types
 * (https://docs.aws.amazon.com/fsx/latest/LustreGuide/using-fsx-lustre.html,
 * https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateFileSystemLustreConfiguration.html):
 * the throughputs per TiB of storage each allows (SSD storage; none for the scratch types, whose
 * throughput is fixed), and the step of its storage capacity beyond 2400 GiB (1200 GiB, 2400 GiB,
 * then increments of 3600 GiB for SCRATCH_1 and of 2400 GiB for the others,
 * https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateFileSystem.html#FSx-CreateFileSystem-request-StorageCapacity).
 */
public enum LustreDeploymentType {
    SCRATCH_1(List.of(), 3600),
    SCRATCH_2(List.of(), 2400),
    PERSISTENT_1(List.of(50, 100, 200), 2400),
    PERSISTENT_2(List.of(125, 250, 500, 1000), 2400);

    private final List<Integer> throughputs;
    private final int capacityStep;

    LustreDeploymentType(List<Integer> throughputs, int capacityStep) {
        this.throughputs = throughputs;
        this.capacityStep = capacityStep;
    }

    /** MB/s per TiB the type allows; empty for scratch file systems (perUnitStorageThroughput refused). */
    public List<Integer> throughputs() {
        return throughputs;
    }

    public boolean persistent() {
        return !throughputs.isEmpty();
    }

    /** Whether AWS creates a file system of this type with {@code gib} of storage. */
    public boolean validCapacity(int gib) {
        return gib == 1200 || gib == 2400 || (gib > 2400 && gib % capacityStep == 0);
    }

    /** AWS's rule for the capacity, as an error message gives it. */
    public String capacityRule() {
        return "1200, 2400, or a multiple of " + capacityStep + " GiB";
    }

    /** The next valid capacity at or above {@code gib}. */
    public int validCapacityAtLeast(int gib) {
        if (gib <= 1200) {
            return 1200;
        }
        if (gib <= 2400) {
            return 2400;
        }
        return (gib + capacityStep - 1) / capacityStep * capacityStep;
    }
}
