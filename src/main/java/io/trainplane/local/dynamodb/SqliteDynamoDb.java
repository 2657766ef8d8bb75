package io.trainplane.local.dynamodb;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.CreateTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ListTablesRequest;
import software.amazon.awssdk.services.dynamodb.model.ListTablesResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * The twin's DynamoDB: the SDK's {@link DynamoDbClient} over a {@link TableStore} in SQLite, with
 * the operations and expressions Trainplane uses (CreateTable, DescribeTable, DeleteTable,
 * ListTables, PutItem, GetItem, UpdateItem, DeleteItem, Query, Scan). Any other operation throws
 * the SDK interface's own {@link UnsupportedOperationException}. Each operation is one transaction of the
 * store: a condition and the write it guards are atomic.
 */
public final class SqliteDynamoDb implements DynamoDbClient {
    private final TableStore store;
    private final Reads reads;

    private SqliteDynamoDb(TableStore store) {
        this.store = store;
        this.reads = new Reads(store);
    }

    /** A store that lives as long as this client (tests, a local run's own database). */
    public static SqliteDynamoDb inMemory() {
        return new SqliteDynamoDb(TableStore.inMemory());
    }

    /** The store in the SQLite file {@code file}, created when missing (the local run store). */
    public static SqliteDynamoDb at(Path file) {
        return new SqliteDynamoDb(TableStore.at(file));
    }

    @Override
    public String serviceName() {
        return SERVICE_NAME;
    }

    @Override
    public void close() {
        store.close();
    }

    @Override
    public CreateTableResponse createTable(CreateTableRequest request) {
        TableSchema schema = schemaOf(request);
        return store.transaction(() -> {
            if (store.schema(schema.name()).isPresent()) {
                throw Errors.tableExists(schema.name());
            }
            store.createTable(schema);
            return CreateTableResponse.builder()
                    .tableDescription(schema.describe(0))
                    .build();
        });
    }

    private static TableSchema schemaOf(CreateTableRequest request) {
        Map<String, String> types = new LinkedHashMap<>();
        for (AttributeDefinition d : request.attributeDefinitions()) {
            types.put(d.attributeName(), d.attributeTypeAsString());
        }
        List<TableSchema.Index> indexes = new ArrayList<>();
        for (GlobalSecondaryIndex i : request.globalSecondaryIndexes()) {
            var p = i.projection();
            indexes.add(new TableSchema.Index(
                    i.indexName(),
                    key(i.keySchema(), KeyType.HASH),
                    key(i.keySchema(), KeyType.RANGE),
                    p.projectionTypeAsString(),
                    p.hasNonKeyAttributes() ? List.copyOf(p.nonKeyAttributes()) : List.of()));
        }
        if (request.hasLocalSecondaryIndexes()
                && !request.localSecondaryIndexes().isEmpty()) {
            throw new UnsupportedOperationException("CreateTable with local secondary indexes");
        }
        String hash = key(request.keySchema(), KeyType.HASH);
        if (hash == null) {
            throw Errors.validation("1 validation error detected: the key schema has no HASH key");
        }
        return new TableSchema(
                request.tableName(),
                hash,
                key(request.keySchema(), KeyType.RANGE),
                types,
                List.copyOf(indexes),
                TableSchema.defaultBillingMode(request.billingMode()),
                Instant.now());
    }

    private static String key(List<KeySchemaElement> keys, KeyType type) {
        return keys.stream()
                .filter(k -> k.keyType() == type)
                .map(KeySchemaElement::attributeName)
                .findFirst()
                .orElse(null);
    }

    @Override
    public DescribeTableResponse describeTable(DescribeTableRequest request) {
        return store.transaction(() -> {
            TableSchema t = table(request.tableName());
            return DescribeTableResponse.builder()
                    .table(t.describe(store.count(t.name())))
                    .build();
        });
    }

    @Override
    public DeleteTableResponse deleteTable(DeleteTableRequest request) {
        return store.transaction(() -> {
            TableSchema t = table(request.tableName());
            long count = store.count(t.name());
            store.deleteTable(t.name());
            return DeleteTableResponse.builder()
                    .tableDescription(t.describe(count))
                    .build();
        });
    }

    @Override
    public ListTablesResponse listTables(ListTablesRequest request) {
        return store.transaction(() ->
                ListTablesResponse.builder().tableNames(store.tableNames()).build());
    }

    @Override
    public PutItemResponse putItem(PutItemRequest request) {
        Placeholders p = new Placeholders(request.expressionAttributeNames(), request.expressionAttributeValues());
        Condition condition = Condition.parse(request.conditionExpression(), p);
        p.requireAllUsed();
        Map<String, AttributeValue> item = new LinkedHashMap<>(request.item());
        return store.transaction(() -> {
            TableSchema t = table(request.tableName());
            Keys.requireItemKeys(t, item);
            ItemSize.requireWithinLimit(item);
            Map<String, AttributeValue> old = store.get(t, item).orElse(null);
            check(condition, old, request.returnValuesOnConditionCheckFailure());
            store.put(t, item);
            PutItemResponse.Builder response = PutItemResponse.builder();
            if (request.returnValues() == ReturnValue.ALL_OLD && old != null) {
                response.attributes(old);
            }
            return response.build();
        });
    }

    @Override
    public GetItemResponse getItem(GetItemRequest request) {
        Placeholders p = new Placeholders(request.expressionAttributeNames(), null);
        Projection projection = Projection.parse(request.projectionExpression(), p);
        p.requireAllUsed();
        return store.transaction(() -> {
            TableSchema t = table(request.tableName());
            Keys.requireKey(t, request.key());
            return store.get(t, request.key())
                    .map(item -> GetItemResponse.builder()
                            .item(projection.apply(item))
                            .build())
                    .orElseGet(() -> GetItemResponse.builder().build());
        });
    }

    @Override
    public UpdateItemResponse updateItem(UpdateItemRequest request) {
        Placeholders p = new Placeholders(request.expressionAttributeNames(), request.expressionAttributeValues());
        Condition condition = Condition.parse(request.conditionExpression(), p);
        if (request.updateExpression() == null) {
            throw new UnsupportedOperationException("UpdateItem without an UpdateExpression (AttributeUpdates)");
        }
        Update update = Update.parse(request.updateExpression(), p);
        p.requireAllUsed();
        return store.transaction(() -> {
            TableSchema t = table(request.tableName());
            Keys.requireKey(t, request.key());
            Keys.refuseKeyUpdate(t, update.changed());
            Map<String, AttributeValue> old = store.get(t, request.key()).orElse(null);
            check(condition, old, request.returnValuesOnConditionCheckFailure());
            Map<String, AttributeValue> before = old == null ? new LinkedHashMap<>(request.key()) : old;
            Map<String, AttributeValue> after = update.apply(before);
            ItemSize.requireWithinLimit(after);
            store.put(t, after);
            return UpdateItemResponse.builder()
                    .attributes(Keys.returned(request.returnValues(), old, after, update.changed()))
                    .build();
        });
    }

    @Override
    public DeleteItemResponse deleteItem(DeleteItemRequest request) {
        Placeholders p = new Placeholders(request.expressionAttributeNames(), request.expressionAttributeValues());
        Condition condition = Condition.parse(request.conditionExpression(), p);
        p.requireAllUsed();
        return store.transaction(() -> {
            TableSchema t = table(request.tableName());
            Keys.requireKey(t, request.key());
            Map<String, AttributeValue> old = store.get(t, request.key()).orElse(null);
            check(condition, old, request.returnValuesOnConditionCheckFailure());
            store.delete(t, request.key());
            DeleteItemResponse.Builder response = DeleteItemResponse.builder();
            if (request.returnValues() == ReturnValue.ALL_OLD && old != null) {
                response.attributes(old);
            }
            return response.build();
        });
    }

    @Override
    public QueryResponse query(QueryRequest request) {
        return store.transaction(() -> reads.query(table(request.tableName()), request));
    }

    @Override
    public ScanResponse scan(ScanRequest request) {
        return store.transaction(() -> reads.scan(table(request.tableName()), request));
    }

    private TableSchema table(String name) {
        return store.schema(name).orElseThrow(Errors::tableNotFound);
    }

    /**
     * The condition against the item as stored (an absent item as the empty map); when it fails,
     * the item travels with the exception if the request asked for {@code ALL_OLD}.
     */
    private static void check(
            Condition condition, Map<String, AttributeValue> old, ReturnValuesOnConditionCheckFailure onFailure) {
        if (!condition.test(old == null ? Map.of() : old)) {
            throw Errors.conditionFailed(onFailure == ReturnValuesOnConditionCheckFailure.ALL_OLD ? old : null);
        }
    }
}
