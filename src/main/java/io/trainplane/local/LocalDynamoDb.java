package io.trainplane.local;

import com.amazonaws.services.dynamodbv2.local.embedded.DynamoDBEmbedded;
import com.amazonaws.services.dynamodbv2.local.shared.access.AmazonDynamoDBLocal;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * DynamoDB Local, embedded and in memory: the real engine behind the SDK v2 client interface.
 * Its native SQLite library ships in the jar. Telemetry is off: local mode never phones home.
 */
public final class LocalDynamoDb implements AutoCloseable {
    private final AmazonDynamoDBLocal local;
    private final DynamoDbClient client;

    private LocalDynamoDb(AmazonDynamoDBLocal local) {
        this.local = local;
        this.client = local.dynamoDbClient();
    }

    public static LocalDynamoDb start() {
        return new LocalDynamoDb(DynamoDBEmbedded.create(Boolean.FALSE));
    }

    public DynamoDbClient client() {
        return client;
    }

    @Override
    public void close() {
        local.shutdownNow();
    }
}
