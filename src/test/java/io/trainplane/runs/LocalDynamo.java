package io.trainplane.runs;

import com.amazonaws.services.dynamodbv2.local.embedded.DynamoDBEmbedded;
import com.amazonaws.services.dynamodbv2.local.shared.access.AmazonDynamoDBLocal;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * DynamoDB Local, embedded in the test JVM (the real engine over in-memory SQLite), one per test
 * class, with a fresh {@code Runs} table per test.
 *
 * <p>No native-library setup is needed: DynamoDB Local 2.6.1 ships libsqlite4java for Linux,
 * macOS and Windows inside its jar and its {@code SQLiteLibraryLoader} loads the right one, so
 * {@code sqlite4java.library.path} stays unset. (JDK 22+ prints a "restricted method" warning for
 * that {@code System.load}; {@code --enable-native-access=ALL-UNNAMED} silences it.)
 * {@code create(true)} turns DynamoDB Local's telemetry off; {@code create()} would leave it on.
 */
final class LocalDynamo implements AutoCloseable {
    private static final AtomicInteger TABLES = new AtomicInteger();
    private final AmazonDynamoDBLocal engine;
    private final DynamoDbClient client;

    private LocalDynamo(AmazonDynamoDBLocal engine) {
        this.engine = engine;
        this.client = engine.dynamoDbClient();
    }

    static LocalDynamo start() {
        // true: telemetry off (no start-up event sent, no dynamodb-local-metadata.json written).
        return new LocalDynamo(DynamoDBEmbedded.create(true));
    }

    DynamoDbClient client() {
        return client;
    }

    /** Creates a new, empty runs table and returns its name. */
    String freshTable() {
        String name = "Runs-" + TABLES.incrementAndGet();
        RunsTable.create(client, name);
        return name;
    }

    @Override
    public void close() {
        engine.shutdown();
    }
}
