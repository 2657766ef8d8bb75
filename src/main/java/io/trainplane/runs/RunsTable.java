package io.trainplane.runs;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.waiters.DynamoDbWaiter;

/**
 * The {@code Runs} table: partition key {@code pk}, sort key {@code sk}, on-demand, and the
 * {@value #STATUS_INDEX} index (partition {@code status}, sort {@code createdAt}, all attributes
 * projected) that lists runs by status, newest first. On AWS, template.yaml defines the same
 * table; this creates it for local mode and tests.
 */
public final class RunsTable {
    /** The global secondary index on status + creation time; only run items carry {@code status}. */
    public static final String STATUS_INDEX = "byStatus";

    private RunsTable() {}

    /** Creates the table and waits until it is active; a table that already exists is kept as is. */
    public static void create(DynamoDbClient dynamo, String tableName) {
        CreateTableRequest request = CreateTableRequest.builder()
                .tableName(tableName)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        attribute(RunItems.PK), attribute(RunItems.SK),
                        attribute(RunItems.STATUS), attribute(RunItems.CREATED_AT))
                .keySchema(key(RunItems.PK, KeyType.HASH), key(RunItems.SK, KeyType.RANGE))
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder()
                        .indexName(STATUS_INDEX)
                        .keySchema(key(RunItems.STATUS, KeyType.HASH), key(RunItems.CREATED_AT, KeyType.RANGE))
                        .projection(Projection.builder()
                                .projectionType(ProjectionType.ALL)
                                .build())
                        .build())
                .build();
        try {
            dynamo.createTable(request);
        } catch (ResourceInUseException alreadyExists) {
            // Created before (or concurrently): adopt it.
        }
        try (DynamoDbWaiter waiter = DynamoDbWaiter.builder().client(dynamo).build()) {
            waiter.waitUntilTableExists(b -> b.tableName(tableName));
        }
    }

    private static AttributeDefinition attribute(String name) {
        return AttributeDefinition.builder()
                .attributeName(name)
                .attributeType(ScalarAttributeType.S)
                .build();
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}
