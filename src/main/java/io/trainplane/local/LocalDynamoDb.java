package io.trainplane.local;

import com.amazonaws.services.dynamodbv2.local.embedded.DynamoDBEmbedded;
import com.amazonaws.services.dynamodbv2.local.shared.access.AmazonDynamoDBLocal;
import java.util.logging.Level;
import java.util.logging.Logger;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * DynamoDB Local, embedded, in memory or in one file: the real engine behind the SDK v2 client interface.
 * Its native SQLite library ships in the jar. Telemetry is off: local mode never phones home.
 */
public final class LocalDynamoDb implements AutoCloseable {
    private final AmazonDynamoDBLocal local;
    private final DynamoDbClient client;

    private LocalDynamoDb(AmazonDynamoDBLocal local) {
        this(local, local.dynamoDbClient());
    }

    private LocalDynamoDb(AmazonDynamoDBLocal local, DynamoDbClient client) {
        this.local = local;
        this.client = client;
    }

    /** The same database seen through another client (one that counts or logs calls, say). */
    public LocalDynamoDb through(java.util.function.UnaryOperator<DynamoDbClient> wrap) {
        return new LocalDynamoDb(local, wrap.apply(client));
    }

    // sqlite4java warns about its own jar version on every start; nothing to act on.
    private static final Logger SQLITE_LOG = Logger.getLogger("com.almworks.sqlite4java");

    public static LocalDynamoDb start() {
        SQLITE_LOG.setLevel(Level.SEVERE);
        // The argument opts out of telemetry (and of the metadata file it writes into the working directory).
        return new LocalDynamoDb(DynamoDBEmbedded.create(Boolean.TRUE));
    }

    /**
     * DynamoDB Local keeping its tables in the SQLite file {@code file}, created when missing.
     * (Given a directory, DynamoDB Local retries opening it forever: callers pass a file.)
     */
    public static LocalDynamoDb startAt(java.nio.file.Path file) {
        if (java.nio.file.Files.isDirectory(file)) {
            throw new IllegalArgumentException("a DynamoDB Local database is a file, not a directory: " + file);
        }
        SQLITE_LOG.setLevel(Level.SEVERE);
        return new LocalDynamoDb(DynamoDBEmbedded.create(file.toFile(), Boolean.TRUE));
    }

    public DynamoDbClient client() {
        return client;
    }

    @Override
    public void close() {
        local.shutdownNow();
    }
}
