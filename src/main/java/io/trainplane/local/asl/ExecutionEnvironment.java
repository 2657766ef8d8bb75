package io.trainplane.local.asl;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * What the parts of one running execution share: its name, clock, deadline, history, context
 * object, the caller's invoker and listener, the transition count, and its deterministic random
 * sources (retry jitter, States.UUID), seeded from the execution name so runs repeat exactly.
 */
record ExecutionEnvironment(
        String executionName,
        SimulatedClock clock,
        Deadline deadline,
        History history,
        ContextObject context,
        TaskInvoker invoker,
        ExecutionListener listener,
        AtomicInteger transitions,
        RandomGenerator jitter,
        Supplier<String> uuids) {

    static ExecutionEnvironment create(
            String executionName,
            SimulatedClock clock,
            Deadline deadline,
            History history,
            ContextObject context,
            TaskInvoker invoker,
            ExecutionListener listener) {
        SplittableRandom uuidRandom = new SplittableRandom(seed("uuid:" + executionName));
        Supplier<String> uuids = () -> new UUID(
                        (uuidRandom.nextLong() & ~0xF000L) | 0x4000L,
                        (uuidRandom.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L)
                .toString();
        return new ExecutionEnvironment(
                executionName,
                clock,
                deadline,
                history,
                context,
                invoker,
                listener,
                new AtomicInteger(),
                new SplittableRandom(seed("jitter:" + executionName)),
                uuids);
    }

    private static long seed(String text) {
        return UUID.nameUUIDFromBytes(text.getBytes(StandardCharsets.UTF_8)).getMostSignificantBits();
    }
}
