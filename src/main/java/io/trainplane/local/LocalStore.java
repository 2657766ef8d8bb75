package io.trainplane.local;

import io.trainplane.runs.RunsTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;

/**
 * The local run store: the Runs table of local runs, in the twin's DynamoDB file (SQLite)
 * {@value #FILE} of a directory ({@code .trainplane/} of the working directory unless
 * {@code $TRAINPLANE_HOME} or {@code --store} names another). A local run executes against its
 * own in-memory database, as fast as before; {@link #save} copies the run's items here while it
 * goes and when it ends, so {@code status}, {@code list}, {@code watch}, {@code logs} and {@code cancel} with
 * {@code --local} read it from another process, during the run or later (SQLite in WAL mode: readers
 * and the run's writes take turns, one transaction each). A store an earlier Trainplane kept in
 * DynamoDB Local's file format is refused ({@link UnreadableStoreException}, saying to move it aside).
 */
public final class LocalStore implements AutoCloseable {
    public static final String HOME_VARIABLE = "TRAINPLANE_HOME";
    public static final Path DEFAULT_DIR = Path.of(".trainplane");
    static final String FILE = "runs.db";

    private final Path dir;
    private final LocalDynamoDb dynamoDb;

    private LocalStore(Path dir, LocalDynamoDb dynamoDb) {
        this.dir = dir;
        this.dynamoDb = dynamoDb;
    }

    /** {@code --store} when given, else {@code $TRAINPLANE_HOME}, else {@code .trainplane/}. */
    public static Path dir(Path option, Map<String, String> env) {
        if (option != null) {
            return option;
        }
        String home = env.get(HOME_VARIABLE);
        return home == null || home.isBlank() ? DEFAULT_DIR : Path.of(home);
    }

    /** The store in {@code dir}, created (directory, database, table) when missing. */
    public static LocalStore open(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the local store " + dir, e);
        }
        Path file = dir.resolve(FILE);
        LocalDynamoDb dynamoDb;
        try {
            dynamoDb = LocalDynamoDb.startAt(file);
        } catch (RuntimeException e) {
            throw new UnreadableStoreException(file, e);
        }
        LocalStore store = new LocalStore(dir, dynamoDb);
        try {
            RunsTable.create(store.client(), tableName());
            // A file that is not a database opens; its first read fails.
            store.client().describeTable(r -> r.tableName(tableName()));
        } catch (RuntimeException e) {
            store.close();
            throw new UnreadableStoreException(file, e);
        }
        return store;
    }

    /** The store in {@code dir} when a local run has written one there; never creates anything. */
    public static Optional<LocalStore> openExisting(Path dir) {
        return Files.isRegularFile(dir.resolve(FILE)) ? Optional.of(open(dir)) : Optional.empty();
    }

    public DynamoDbClient client() {
        return dynamoDb.client();
    }

    public Path dir() {
        return dir;
    }

    /** The table's name: the same as in every local cloud. */
    public static String tableName() {
        return LocalCloud.tableName();
    }

    /**
     * Copies every item of the Runs table {@code table} of {@code from} (a local cloud's own
     * database: its run's record and timeline) into this store, then deletes what the store holds
     * under the same partition keys that the copy did not write, so a run id used again shows its
     * latest run only. Written before anything is deleted: a command reading the store while a run
     * goes ({@code watch --local} in another terminal) finds the record at every moment.
     */
    public int save(DynamoDbClient from, String table) {
        List<KeySchemaElement> schema =
                from.describeTable(r -> r.tableName(table)).table().keySchema();
        List<String> keys = schema.stream().map(KeySchemaElement::attributeName).toList();
        String partition = schema.stream()
                .filter(k -> k.keyType() == KeyType.HASH)
                .findFirst()
                .orElseThrow()
                .attributeName();
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        from.scanPaginator(r -> r.tableName(table).consistentRead(true)).items().forEach(items::add);
        Set<AttributeValue> partitions = new LinkedHashSet<>();
        Set<Map<String, AttributeValue>> written = new java.util.HashSet<>();
        for (Map<String, AttributeValue> item : items) {
            partitions.add(item.get(partition));
            written.add(keyOf(item, keys));
            client().putItem(r -> r.tableName(tableName()).item(item));
        }
        for (AttributeValue pk : partitions) {
            client()
                    .queryPaginator(r -> r.tableName(tableName())
                            .consistentRead(true)
                            .keyConditionExpression("#pk = :pk")
                            .expressionAttributeNames(Map.of("#pk", partition))
                            .expressionAttributeValues(Map.of(":pk", pk)))
                    .items()
                    .stream()
                    .map(old -> keyOf(old, keys))
                    .filter(key -> !written.contains(key))
                    .toList()
                    .forEach(key ->
                            client().deleteItem(r -> r.tableName(tableName()).key(key)));
        }
        return items.size();
    }

    private static Map<String, AttributeValue> keyOf(Map<String, AttributeValue> item, List<String> keys) {
        Map<String, AttributeValue> key = new HashMap<>();
        keys.forEach(k -> key.put(k, item.get(k)));
        return key;
    }

    @Override
    public void close() {
        dynamoDb.close();
    }
}
