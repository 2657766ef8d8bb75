package io.trainplane.local;

import java.util.Set;

/**
 * Faults injected by state name: {@code failAt} states fail every attempt with a non-retryable
 * error; {@code flaky} states fail their first attempt in the execution with a transient one (the
 * Retry must absorb it).
 */
public record Faults(Set<String> failAt, Set<String> flaky) {
    public static final String INJECTED_ERROR = "trainplane.InjectedFault";

    public static Faults none() {
        return new Faults(Set.of(), Set.of());
    }

    public Faults {
        failAt = Set.copyOf(failAt);
        flaky = Set.copyOf(flaky);
    }
}
