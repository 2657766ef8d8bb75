package io.trainplane.local;

import io.trainplane.local.sim.ClusterFault;
import java.util.Set;

/**
 * Faults injected into a local run. By state name: {@code failAt} states fail every attempt with a
 * non-retryable error; {@code flaky} states fail their first attempt in the execution with a
 * transient one (the Retry must absorb it). By AWS operation ({@code "service:Operation"}, as the
 * call log names them, e.g. {@code "eks:CreateCluster"}): {@code awsFailures} make the simulated
 * service refuse every call with its own exception type; {@code awsThrottles} make its first call
 * fail with a {@code ThrottlingException}. A {@code clusterFault} (or null) makes the simulated
 * cluster's pods fail the way a real cluster shows that trouble; one that interrupts the training
 * strikes after {@code interruptAfterEpochs} epochs (0: half of them).
 */
public record Faults(
        Set<String> failAt,
        Set<String> flaky,
        Set<String> awsFailures,
        Set<String> awsThrottles,
        ClusterFault clusterFault,
        int interruptAfterEpochs) {
    public static final String INJECTED_ERROR = "trainplane.InjectedFault";

    public static Faults none() {
        return new Faults(Set.of(), Set.of());
    }

    /** Faults by state name only. */
    public Faults(Set<String> failAt, Set<String> flaky) {
        this(failAt, flaky, Set.of(), Set.of());
    }

    /** Faults in states and AWS operations, none on the cluster. */
    public Faults(Set<String> failAt, Set<String> flaky, Set<String> awsFailures, Set<String> awsThrottles) {
        this(failAt, flaky, awsFailures, awsThrottles, null);
    }

    /** These faults, a fault that interrupts the training striking half-way through it. */
    public Faults(
            Set<String> failAt,
            Set<String> flaky,
            Set<String> awsFailures,
            Set<String> awsThrottles,
            ClusterFault clusterFault) {
        this(failAt, flaky, awsFailures, awsThrottles, clusterFault, 0);
    }

    /** Only this fault on the cluster. */
    public static Faults onCluster(ClusterFault fault) {
        return new Faults(Set.of(), Set.of(), Set.of(), Set.of(), fault);
    }

    /** Only this fault on the cluster, interrupting the training after {@code epochs} epochs. */
    public static Faults onCluster(ClusterFault fault, int epochs) {
        return new Faults(Set.of(), Set.of(), Set.of(), Set.of(), fault, epochs);
    }

    public Faults {
        failAt = Set.copyOf(failAt);
        flaky = Set.copyOf(flaky);
        awsFailures = Set.copyOf(awsFailures);
        awsThrottles = Set.copyOf(awsThrottles);
        for (String operation : awsFailures) {
            requireOperation(operation);
        }
        for (String operation : awsThrottles) {
            requireOperation(operation);
        }
        if (interruptAfterEpochs < 0 || (interruptAfterEpochs > 0 && !interrupts(clusterFault))) {
            throw new IllegalArgumentException("only node-lost and spot-interruption take @<epochs>");
        }
    }

    /** Whether {@code fault} takes a worker's node away mid-training. */
    public static boolean interrupts(ClusterFault fault) {
        return fault == ClusterFault.NODE_LOST || fault == ClusterFault.SPOT_INTERRUPTION;
    }

    private static void requireOperation(String operation) {
        int colon = operation.indexOf(':');
        if (colon <= 0 || colon == operation.length() - 1) {
            throw new IllegalArgumentException(
                    "an AWS fault names service:Operation (like eks:CreateCluster), not '" + operation + "'");
        }
    }
}
