package io.trainplane.local.sim;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts the calls made to the simulated cloud, per {@code service:Operation}. */
public final class CallLog {
    private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

    public void record(String service, String operation) {
        counts.computeIfAbsent(service + ":" + operation, k -> new AtomicInteger())
                .incrementAndGet();
    }

    /** A sorted snapshot. */
    public Map<String, Integer> counts() {
        Map<String, Integer> snapshot = new TreeMap<>();
        counts.forEach((k, v) -> snapshot.put(k, v.get()));
        return snapshot;
    }
}
