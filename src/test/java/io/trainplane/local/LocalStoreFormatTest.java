package io.trainplane.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.DriverManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local store's file: the twin's DynamoDB keeps it; one an earlier DynamoDB Local wrote is refused. */
class LocalStoreFormatTest {

    @Test
    void reopensItsOwnStore(@TempDir Path dir) {
        try (LocalStore store = LocalStore.open(dir)) {
            assertThat(store.client().listTables().tableNames()).containsExactly(LocalStore.tableName());
        }
        try (LocalStore store = LocalStore.open(dir)) {
            assertThat(store.client()
                            .describeTable(r -> r.tableName(LocalStore.tableName()))
                            .table()
                            .tableName())
                    .isEqualTo(LocalStore.tableName());
        }
    }

    @Test
    void refusesADynamoDbLocalFileWithASentence(@TempDir Path dir) throws Exception {
        try (var c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(LocalStore.FILE));
                var s = c.createStatement()) {
            // DynamoDB Local's own tables: dm (table metadata) and one per DynamoDB table.
            s.execute("CREATE TABLE dm (TableName TEXT, TableInfo BLOB)");
        }
        assertThatThrownBy(() -> LocalStore.open(dir))
                .isInstanceOf(UnreadableStoreException.class)
                .hasMessageContaining("is not a store of the twin's DynamoDB")
                .hasMessageContaining("move it aside");
    }
}
