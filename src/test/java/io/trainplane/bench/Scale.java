package io.trainplane.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.local.Faults;
import io.trainplane.local.LocalCloud;
import io.trainplane.local.LocalDynamoDb;
import io.trainplane.local.LocalRun;
import io.trainplane.local.RunReport;
import io.trainplane.local.sim.SimulatedWorkload;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunStore;
import io.trainplane.runs.RunsTable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * Scale benchmark: many runs of examples/quickstart.json executed concurrently by the local
 * executor against one database of the twin's DynamoDB. Each run has its own {@link LocalCloud} (its own simulated
 * clock: the executor moves the clock forward at every Wait, so executions sharing one clock would
 * move each other's time) on the shared database. Checks that every run reaches a terminal state
 * and that no update was lost: the run record's version equals the successful writes of that
 * record, counted at the client. Run with {@code ./bench/run scale [runs] [threads]}.
 */
public final class Scale {
    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        JsonNode base = Json.read(Files.readString(Path.of("examples/quickstart.json")));
        List<String> problems = new ArrayList<>();
        Map<String, Integer> statuses = new TreeMap<>();
        long start;
        long wall;
        try (LocalDynamoDb db = LocalDynamoDb.start()) {
            RunsTable.create(db.client(), LocalCloud.tableName());
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<String>> results = new ArrayList<>();
            start = System.nanoTime();
            for (int i = 0; i < runs; i++) {
                String runId = String.format(Locale.ROOT, "scale-%03d", i);
                ObjectNode spec = base.deepCopy();
                spec.put("runId", runId);
                results.add(pool.submit(() -> run(db, spec, runId)));
            }
            for (Future<String> result : results) {
                String outcome = result.get();
                String status = outcome.substring(0, outcome.indexOf(' '));
                statuses.merge(status, 1, Integer::sum);
                if (!outcome.endsWith(" ok")) {
                    problems.add(outcome);
                }
            }
            wall = (System.nanoTime() - start) / 1_000_000;
            pool.shutdown();
        }
        System.out.printf(
                Locale.ROOT,
                "Scale benchmark: %d runs of examples/quickstart.json, %d threads, one twin DynamoDB,"
                        + " one simulated cloud (and clock) per run%n",
                runs,
                threads);
        System.out.printf(
                Locale.ROOT,
                "  %d CPUs, wall %.1f s, throughput %.2f runs/s%n",
                Runtime.getRuntime().availableProcessors(),
                wall / 1000.0,
                runs * 1000.0 / wall);
        System.out.println("  final statuses " + statuses);
        problems.forEach(p -> System.out.println("  " + p));
        boolean terminal = statuses.keySet().stream()
                .allMatch(s -> s.equals("SUCCEEDED") || s.equals("FAILED") || s.equals("CANCELLED"));
        boolean ok = terminal && problems.isEmpty();
        System.out.printf(
                Locale.ROOT,
                "%s  all runs terminal, record versions equal their writes (no lost update)%n",
                ok ? "PASS" : "FAIL");
        System.exit(ok ? 0 : 1);
    }

    /** One run; "STATUS ok" or "STATUS runId: what is wrong". */
    private static String run(LocalDynamoDb shared, ObjectNode spec, String runId) {
        AtomicLong writes = new AtomicLong();
        LocalDynamoDb counted = shared.through(client -> counting(client, writes));
        try (LocalCloud cloud = new LocalCloud(TestTime.START, new SimulatedWorkload(), counted)) {
            RunReport report = new LocalRun(cloud, Faults.none(), e -> {}).execute(spec, runId);
            RunRecord record = new RunStore(shared.client(), LocalCloud.tableName(), Clock.systemUTC())
                    .find(runId)
                    .orElse(null);
            if (record == null) {
                return report.status() + " " + runId + ": no run record";
            }
            if (!record.status().name().equals(report.status())) {
                return report.status() + " " + runId + ": record says " + record.status();
            }
            if (record.version() != writes.get()) {
                return report.status() + " " + runId + ": version " + record.version() + " but " + writes.get()
                        + " writes";
            }
            return report.status() + " ok";
        } catch (RuntimeException e) {
            return "ERROR " + runId + ": " + e;
        }
    }

    /** The client, counting the successful writes of run records (sort key RUN). */
    private static DynamoDbClient counting(DynamoDbClient client, AtomicLong writes) {
        return (DynamoDbClient) Proxy.newProxyInstance(
                Scale.class.getClassLoader(), new Class<?>[] {DynamoDbClient.class}, (proxy, method, args) -> {
                    Object result;
                    try {
                        result = method.invoke(client, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (method.getName().equals("putItem")
                            && args != null
                            && args[0] instanceof PutItemRequest put
                            && put.item().containsKey("sk")
                            && "RUN".equals(put.item().get("sk").s())) {
                        writes.incrementAndGet();
                    }
                    return result;
                });
    }
}
