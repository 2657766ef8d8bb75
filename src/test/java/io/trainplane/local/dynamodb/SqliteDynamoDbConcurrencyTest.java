package io.trainplane.local.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.runs.RunsTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * 100 threads incrementing one item by optimistic conditional writes (read the version, write
 * version + 1 and the counter the thread computed, on condition that the version is unchanged):
 * a write that did not see the one before it must be refused, so no increment is lost.
 */
class SqliteDynamoDbConcurrencyTest {
    private static final int THREADS = 100;
    private static final int INCREMENTS = 20;
    private static final Map<String, AttributeValue> KEY =
            Map.of("pk", AttributeValue.fromS("COUNTER"), "sk", AttributeValue.fromS("ONE"));

    @Test
    void inMemoryNoIncrementIsLost() throws Exception {
        try (SqliteDynamoDb dynamo = SqliteDynamoDb.inMemory()) {
            RunsTable.create(dynamo, "Runs");
            run("in memory", List.of(dynamo));
        }
    }

    @Test
    void inAFileSharedByTwoClientsNoIncrementIsLost(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("runs.db");
        try (SqliteDynamoDb first = SqliteDynamoDb.at(file);
                SqliteDynamoDb second = SqliteDynamoDb.at(file)) {
            RunsTable.create(first, "Runs");
            run("one file, two clients (WAL)", List.of(first, second));
        }
    }

    private static void run(String mode, List<DynamoDbClient> clients) throws Exception {
        clients.get(0).putItem(r -> r.tableName("Runs")
                .item(Map.of(
                        "pk",
                        KEY.get("pk"),
                        "sk",
                        KEY.get("sk"),
                        "version",
                        AttributeValue.fromN("0"),
                        "counter",
                        AttributeValue.fromN("0"))));
        AtomicLong refused = new AtomicLong();
        long started = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                DynamoDbClient dynamo = clients.get(t % clients.size());
                done.add(pool.submit(() -> {
                    for (int i = 0; i < INCREMENTS; i++) {
                        while (!increment(dynamo)) {
                            refused.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        Map<String, AttributeValue> item = clients.get(0)
                .getItem(r -> r.tableName("Runs").key(KEY).consistentRead(true))
                .item();
        int expected = THREADS * INCREMENTS;
        System.out.printf(
                "%s: %d threads, %d increments in %.2f s (%.0f committed/s), %d conditional writes refused%n",
                mode, THREADS, expected, seconds, expected / seconds, refused.get());
        assertThat(item.get("counter").n()).isEqualTo(Integer.toString(expected));
        assertThat(item.get("version").n()).isEqualTo(Integer.toString(expected));
    }

    /** One optimistic increment: false when another writer got there first. */
    private static boolean increment(DynamoDbClient dynamo) {
        Map<String, AttributeValue> item = dynamo.getItem(
                        r -> r.tableName("Runs").key(KEY).consistentRead(true))
                .item();
        long version = Long.parseLong(item.get("version").n());
        long counter = Long.parseLong(item.get("counter").n());
        try {
            dynamo.updateItem(r -> r.tableName("Runs")
                    .key(KEY)
                    .updateExpression("SET #v = :next, #c = :counter")
                    .conditionExpression("#v = :seen")
                    .expressionAttributeNames(Map.of("#v", "version", "#c", "counter"))
                    .expressionAttributeValues(Map.of(
                            ":seen", AttributeValue.fromN(Long.toString(version)),
                            ":next", AttributeValue.fromN(Long.toString(version + 1)),
                            ":counter", AttributeValue.fromN(Long.toString(counter + 1)))));
            return true;
        } catch (ConditionalCheckFailedException lost) {
            return false;
        }
    }
}
