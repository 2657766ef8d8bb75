package io.trainplane.runs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Optimistic locking under contention: 20 threads × 10 increments of one counter, none lost. */
class RunStoreConcurrencyTest {
    private static final int THREADS = 20;
    private static final int UPDATES_PER_THREAD = 10;
    private static final int UPDATES = THREADS * UPDATES_PER_THREAD;
    private static LocalDynamo local;

    @BeforeAll
    static void startDynamo() {
        local = LocalDynamo.start();
    }

    @AfterAll
    static void stopDynamo() {
        local.close();
    }

    /** The threads run freely. */
    @Test
    void concurrentUpdatesLoseNothing() throws Exception {
        contend(null);
    }

    /** Every round, all threads read before any of them writes: contention is certain. */
    @Test
    void concurrentUpdatesLinedUpLoseNothing() throws Exception {
        contend(new CyclicBarrier(THREADS));
    }

    private void contend(CyclicBarrier lineUp) throws Exception {
        CountingDynamoDb dynamo = new CountingDynamoDb(local.client());
        RunStore store = new RunStore(dynamo, local.freshTable(), Clock.systemUTC());
        RunRecord initial = store.create("contended", "{}", null);
        AtomicInteger applications = new AtomicInteger();

        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                done.add(pool.submit(() -> {
                    for (int i = 0; i < UPDATES_PER_THREAD; i++) {
                        if (lineUp != null) {
                            lineUp.await(30, TimeUnit.SECONDS);
                        }
                        store.update("contended", r -> {
                            applications.incrementAndGet();
                            return r.withMetric("n", r.metrics().getOrDefault("n", 0.0) + 1);
                        });
                    }
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        RunRecord last = store.get("contended");
        int conflicts = dynamo.refusedPuts.get();
        System.out.printf(
                "run store contention (%s): %d updates, %d applications of the change,"
                        + " %d version conflicts (%.2f per update)%n",
                lineUp == null ? "free" : "lined up",
                UPDATES,
                applications.get(),
                conflicts,
                (double) conflicts / UPDATES);

        assertThat(last.metrics()).containsEntry("n", (double) UPDATES);
        assertThat(last.version()).isEqualTo(initial.version() + UPDATES);
        assertThat(applications.get()).isEqualTo(UPDATES + conflicts);
        assertThat(conflicts).as("the threads really contended").isPositive();
    }
}
