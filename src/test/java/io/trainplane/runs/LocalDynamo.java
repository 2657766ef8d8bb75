package io.trainplane.runs;

import io.trainplane.local.LocalDynamoDb;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The twin's DynamoDB as local mode runs it ({@link LocalDynamoDb}: embedded, in memory), one per test class, with a fresh {@code Runs} table per test.
 */
final class LocalDynamo implements AutoCloseable {
    private static final AtomicInteger TABLES = new AtomicInteger();
    private final LocalDynamoDb engine;

    private LocalDynamo(LocalDynamoDb engine) {
        this.engine = engine;
    }

    static LocalDynamo start() {
        return new LocalDynamo(LocalDynamoDb.start());
    }

    DynamoDbClient client() {
        return engine.client();
    }

    /** Creates a new, empty runs table and returns its name. */
    String freshTable() {
        String name = "Runs-" + TABLES.incrementAndGet();
        RunsTable.create(engine.client(), name);
        return name;
    }

    @Override
    public void close() {
        engine.close();
    }
}
