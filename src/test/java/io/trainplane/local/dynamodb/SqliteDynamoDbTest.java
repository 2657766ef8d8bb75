package io.trainplane.local.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainplane.runs.RunsTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

/** The client's table and item operations, its file, and what it refuses. */
class SqliteDynamoDbTest {

    @Test
    void describesTheRunsTableWithItsIndex() {
        try (SqliteDynamoDb dynamo = SqliteDynamoDb.inMemory()) {
            RunsTable.create(dynamo, "Runs");
            var table = dynamo.describeTable(r -> r.tableName("Runs")).table();
            assertThat(table.keySchema()).extracting(k -> k.attributeName()).containsExactly("pk", "sk");
            assertThat(table.billingModeSummary().billingModeAsString()).isEqualTo("PAY_PER_REQUEST");
            var index = table.globalSecondaryIndexes().get(0);
            assertThat(index.indexName()).isEqualTo(RunsTable.STATUS_INDEX);
            assertThat(index.projection().projectionType()).isEqualTo(ProjectionType.ALL);
            assertThatThrownBy(() -> dynamo.describeTable(r -> r.tableName("Other")))
                    .isInstanceOf(ResourceNotFoundException.class);
        }
    }

    @Test
    void aFailedConditionSaysSoAndCarriesTheItemWhenAsked() {
        try (SqliteDynamoDb dynamo = SqliteDynamoDb.inMemory()) {
            RunsTable.create(dynamo, "Runs");
            Map<String, AttributeValue> item = Map.of("pk", s("A"), "sk", s("B"), "x", s("1"));
            dynamo.putItem(r -> r.tableName("Runs").item(item));
            assertThatThrownBy(() -> dynamo.putItem(r -> r.tableName("Runs")
                            .item(item)
                            .conditionExpression("attribute_not_exists(pk)")
                            .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)))
                    .isInstanceOfSatisfying(ConditionalCheckFailedException.class, e -> {
                        assertThat(e.awsErrorDetails().errorMessage()).isEqualTo("The conditional request failed");
                        assertThat(e.item()).isEqualTo(item);
                    });
        }
    }

    @Test
    void aFileKeepsTheTablesAcrossClients(@TempDir Path dir) {
        Path file = dir.resolve("runs.db");
        try (SqliteDynamoDb dynamo = SqliteDynamoDb.at(file)) {
            RunsTable.create(dynamo, "Runs");
            dynamo.putItem(r -> r.tableName("Runs").item(Map.of("pk", s("A"), "sk", s("B"))));
        }
        try (SqliteDynamoDb dynamo = SqliteDynamoDb.at(file)) {
            RunsTable.create(dynamo, "Runs"); // adopted: already there
            assertThat(dynamo.getItem(r -> r.tableName("Runs").key(Map.of("pk", s("A"), "sk", s("B"))))
                            .hasItem())
                    .isTrue();
        }
    }

    @Test
    void refusesAFileThatIsAnotherDatabase(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("runs.db");
        try (var c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + file);
                var s = c.createStatement()) {
            s.execute("CREATE TABLE dm (TableName TEXT)"); // a DynamoDB Local database has tables of its own
        }
        assertThatThrownBy(() -> SqliteDynamoDb.at(file))
                .hasMessageContaining("is not a store of the twin's DynamoDB")
                .hasMessageContaining("move it aside");
        assertThat(Files.exists(file)).isTrue();
    }

    @Test
    void refusesPlaceholdersNoExpressionUses() {
        // DynamoDB refuses them on every operation; moto_server checks them on some only (not PutItem).
        try (SqliteDynamoDb dynamo = SqliteDynamoDb.inMemory()) {
            RunsTable.create(dynamo, "Runs");
            assertThatThrownBy(() -> dynamo.putItem(r -> r.tableName("Runs")
                            .item(Map.of("pk", s("A"), "sk", s("B")))
                            .conditionExpression("attribute_not_exists(pk)")
                            .expressionAttributeValues(Map.of(":unused", s("x")))))
                    .hasMessageContaining(
                            "Value provided in ExpressionAttributeValues unused in expressions: keys: {:unused}");
        }
    }

    @Test
    void anOperationTheTwinDoesNotOfferIsRefused() {
        // The SDK interface's own default: nothing Trainplane does calls it.
        try (SqliteDynamoDb dynamo = SqliteDynamoDb.inMemory()) {
            assertThatThrownBy(() -> dynamo.batchWriteItem(r -> r.requestItems(Map.of())))
                    .isInstanceOf(UnsupportedOperationException.class);
        }
    }

    private static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }
}
