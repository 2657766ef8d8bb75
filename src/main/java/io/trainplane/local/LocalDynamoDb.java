package io.trainplane.local;

import io.trainplane.local.dynamodb.SqliteDynamoDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The twin's DynamoDB ({@link SqliteDynamoDb}: SQLite, open source), in memory or in one file,
 * behind the SDK v2 client interface.
 */
public final class LocalDynamoDb implements AutoCloseable {
    private final SqliteDynamoDb store;
    private final DynamoDbClient client;

    private LocalDynamoDb(SqliteDynamoDb store, DynamoDbClient client) {
        this.store = store;
        this.client = client;
    }

    /** The same database seen through another client (one that counts or logs calls, say). */
    public LocalDynamoDb through(UnaryOperator<DynamoDbClient> wrap) {
        return new LocalDynamoDb(store, wrap.apply(client));
    }

    public static LocalDynamoDb start() {
        SqliteDynamoDb store = SqliteDynamoDb.inMemory();
        return new LocalDynamoDb(store, store);
    }

    /** The database keeping its tables in the SQLite file {@code file}, created when missing. */
    public static LocalDynamoDb startAt(Path file) {
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException(
                    "the twin's DynamoDB keeps its tables in a file, not a directory: " + file);
        }
        SqliteDynamoDb store = SqliteDynamoDb.at(file);
        return new LocalDynamoDb(store, store);
    }

    public DynamoDbClient client() {
        return client;
    }

    @Override
    public void close() {
        store.close();
    }
}
