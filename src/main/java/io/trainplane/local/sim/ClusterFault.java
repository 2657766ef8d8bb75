package io.trainplane.local.sim;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What can go wrong on the cluster, simulated for {@code trainplane run --cluster-fault}: each
 * produces the pod or job states a real cluster shows in that case.
 */
public enum ClusterFault {
    /** The training pods stay Pending: the scheduler finds no node with the GPUs they ask for. */
    UNSCHEDULABLE("unschedulable"),
    /** The training image cannot be pulled: ImagePullBackOff. */
    IMAGE_PULL("image-pull"),
    /** The training container crashes at start, is restarted and ends in CrashLoopBackOff. */
    CRASH_LOOP("crash-loop"),
    /** The downloaded archive does not match its sha256: the data pod exits 3. */
    BAD_CHECKSUM("bad-checksum"),
    /** The model trains but evaluates below evaluation.minAccuracy. */
    LOW_ACCURACY("low-accuracy"),
    /** Someone deletes the training Job while it runs. */
    JOB_DELETED("job-deleted");

    private final String cli;

    ClusterFault(String cli) {
        this.cli = cli;
    }

    /** The spelling on the command line. */
    public String cli() {
        return cli;
    }

    public static ClusterFault of(String cli) {
        return Arrays.stream(values())
                .filter(f -> f.cli.equals(cli))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no cluster fault '" + cli + "'; faults: "
                        + Arrays.stream(values()).map(ClusterFault::cli).collect(Collectors.joining(", "))));
    }

    @Override
    public String toString() {
        return cli;
    }
}
