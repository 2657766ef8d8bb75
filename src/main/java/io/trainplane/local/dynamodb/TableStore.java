package io.trainplane.local.dynamodb;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.sqlite.SQLiteConfig;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The tables in SQLite: one row per item holding the item's DynamoDB JSON, with its table's keys
 * as columns ({@code pk}, {@code sk}: {@link AttributeValues#keyText}), and one row per item and
 * global secondary index with the index's keys as columns (an item without the index's keys is
 * not in the index, as in DynamoDB). A file keeps the tables in WAL mode; {@code :memory:} keeps
 * them for the life of the store.
 *
 * <p>One connection, guarded by one lock: each operation is a transaction that holds the lock from
 * its first read to its commit, so a conditional write's check and write are one step and
 * concurrent writers are serialized. Transactions begin IMMEDIATE, so another process writing the
 * same file waits (up to the busy timeout) rather than interleaving.
 */
final class TableStore implements AutoCloseable {
    /** The schema's version, in {@code PRAGMA user_version}; a file with another is refused. */
    static final int VERSION = 1;

    private final Connection connection;
    private final ReentrantLock lock = new ReentrantLock();

    private TableStore(Connection connection) {
        this.connection = connection;
    }

    static TableStore inMemory() {
        return open("jdbc:sqlite::memory:", false, "memory");
    }

    /**
     * The store in {@code file}, created when missing. A file that holds something else (a
     * DynamoDB Local database, say) is refused with a sentence saying so.
     */
    static TableStore at(Path file) {
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException(
                    "the twin's DynamoDB keeps its tables in a file, not a directory: " + file);
        }
        return open("jdbc:sqlite:" + file.toAbsolutePath(), true, file.toString());
    }

    private static TableStore open(String url, boolean wal, String where) {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(30_000);
        config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        if (wal) {
            config.setJournalMode(SQLiteConfig.JournalMode.WAL);
            config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        }
        try {
            Connection connection = config.createConnection(url);
            TableStore store = new TableStore(connection);
            store.initialize(where);
            return store;
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "cannot open the twin's DynamoDB store " + where + ": " + e.getMessage(), e);
        }
    }

    private void initialize(String where) throws SQLException {
        try (Statement s = connection.createStatement()) {
            int version;
            try (ResultSet r = s.executeQuery("PRAGMA user_version")) {
                version = r.getInt(1);
            }
            boolean empty;
            try (ResultSet r = s.executeQuery("SELECT count(*) FROM sqlite_master")) {
                empty = r.getInt(1) == 0;
            }
            if (version != VERSION && !empty) {
                connection.close();
                throw new IllegalStateException(where + " is not a store of the twin's DynamoDB (schema version "
                        + VERSION + "; this file has " + version + " and tables of its own, perhaps a DynamoDB Local"
                        + " database of an earlier Trainplane): move it aside and run again");
            }
            s.execute("CREATE TABLE IF NOT EXISTS tables (name TEXT PRIMARY KEY, schema TEXT NOT NULL)");
            s.execute("CREATE TABLE IF NOT EXISTS items (tbl TEXT NOT NULL, pk TEXT NOT NULL, sk TEXT NOT NULL,"
                    + " item TEXT NOT NULL, PRIMARY KEY (tbl, pk, sk)) WITHOUT ROWID");
            s.execute("CREATE TABLE IF NOT EXISTS index_keys (tbl TEXT NOT NULL, idx TEXT NOT NULL, ipk TEXT NOT NULL,"
                    + " pk TEXT NOT NULL, sk TEXT NOT NULL, PRIMARY KEY (tbl, idx, pk, sk)) WITHOUT ROWID");
            s.execute("CREATE INDEX IF NOT EXISTS index_keys_by_partition ON index_keys (tbl, idx, ipk)");
            s.execute("PRAGMA user_version = " + VERSION);
        }
    }

    /** Runs {@code work} as one transaction under the store's lock. */
    <T> T transaction(Supplier<T> work) {
        lock.lock();
        try {
            connection.setAutoCommit(false);
            try {
                T result = work.get();
                connection.commit();
                return result;
            } catch (RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the twin's DynamoDB store failed: " + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    Optional<TableSchema> schema(String table) {
        return first("SELECT schema FROM tables WHERE name = ?", table).map(TableSchema::fromJson);
    }

    List<String> tableNames() {
        return strings("SELECT name FROM tables ORDER BY name");
    }

    void createTable(TableSchema schema) {
        update("INSERT INTO tables (name, schema) VALUES (?, ?)", schema.name(), schema.toJson());
    }

    void deleteTable(String table) {
        update("DELETE FROM tables WHERE name = ?", table);
        update("DELETE FROM items WHERE tbl = ?", table);
        update("DELETE FROM index_keys WHERE tbl = ?", table);
    }

    long count(String table) {
        return Long.parseLong(
                first("SELECT count(*) FROM items WHERE tbl = ?", table).orElse("0"));
    }

    Optional<Map<String, AttributeValue>> get(TableSchema t, Map<String, AttributeValue> key) {
        return first("SELECT item FROM items WHERE tbl = ? AND pk = ? AND sk = ?", t.name(), pk(t, key), sk(t, key))
                .map(AttributeValues::fromJson);
    }

    /** Stores {@code item} in place of the item with its keys, and in each index whose keys it has. */
    void put(TableSchema t, Map<String, AttributeValue> item) {
        delete(t, item);
        String pk = pk(t, item);
        String sk = sk(t, item);
        update(
                "INSERT INTO items (tbl, pk, sk, item) VALUES (?, ?, ?, ?)",
                t.name(),
                pk,
                sk,
                AttributeValues.toJson(item));
        for (TableSchema.Index index : t.indexes()) {
            AttributeValue ipk = item.get(index.hashKey());
            if (ipk != null && (index.rangeKey() == null || item.containsKey(index.rangeKey()))) {
                update(
                        "INSERT INTO index_keys (tbl, idx, ipk, pk, sk) VALUES (?, ?, ?, ?, ?)",
                        t.name(),
                        index.name(),
                        AttributeValues.keyText(ipk),
                        pk,
                        sk);
            }
        }
    }

    void delete(TableSchema t, Map<String, AttributeValue> key) {
        String pk = pk(t, key);
        String sk = sk(t, key);
        update("DELETE FROM items WHERE tbl = ? AND pk = ? AND sk = ?", t.name(), pk, sk);
        update("DELETE FROM index_keys WHERE tbl = ? AND pk = ? AND sk = ?", t.name(), pk, sk);
    }

    /** The items of one partition of the table (unordered). */
    List<Map<String, AttributeValue>> partition(TableSchema t, AttributeValue pk) {
        return items("SELECT item FROM items WHERE tbl = ? AND pk = ?", t.name(), AttributeValues.keyText(pk));
    }

    /** The items of one partition of an index (unordered). */
    List<Map<String, AttributeValue>> indexPartition(TableSchema t, String index, AttributeValue ipk) {
        return items(
                "SELECT i.item FROM index_keys k JOIN items i ON i.tbl = k.tbl AND i.pk = k.pk AND i.sk = k.sk"
                        + " WHERE k.tbl = ? AND k.idx = ? AND k.ipk = ?",
                t.name(),
                index,
                AttributeValues.keyText(ipk));
    }

    /** Every item of the table, by its key columns. */
    List<Map<String, AttributeValue>> all(TableSchema t) {
        return items("SELECT item FROM items WHERE tbl = ? ORDER BY pk, sk", t.name());
    }

    private static String pk(TableSchema t, Map<String, AttributeValue> key) {
        return AttributeValues.keyText(key.get(t.hashKey()));
    }

    private static String sk(TableSchema t, Map<String, AttributeValue> key) {
        return t.rangeKey() == null ? "" : AttributeValues.keyText(key.get(t.rangeKey()));
    }

    private List<Map<String, AttributeValue>> items(String sql, String... args) {
        List<Map<String, AttributeValue>> out = new ArrayList<>();
        strings(sql, args).forEach(json -> out.add(AttributeValues.fromJson(json)));
        return out;
    }

    private Optional<String> first(String sql, String... args) {
        List<String> rows = strings(sql, args);
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }

    private List<String> strings(String sql, String... args) {
        try (PreparedStatement s = prepare(sql, args);
                ResultSet r = s.executeQuery()) {
            List<String> out = new ArrayList<>();
            while (r.next()) {
                out.add(r.getString(1));
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException("the twin's DynamoDB store failed: " + e.getMessage(), e);
        }
    }

    private void update(String sql, String... args) {
        try (PreparedStatement s = prepare(sql, args)) {
            s.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("the twin's DynamoDB store failed: " + e.getMessage(), e);
        }
    }

    private PreparedStatement prepare(String sql, String... args) throws SQLException {
        PreparedStatement s = connection.prepareStatement(sql);
        for (int i = 0; i < args.length; i++) {
            s.setString(i + 1, args[i]);
        }
        return s;
    }

    @Override
    public void close() {
        lock.lock();
        try {
            connection.close();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot close the twin's DynamoDB store: " + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }
}
