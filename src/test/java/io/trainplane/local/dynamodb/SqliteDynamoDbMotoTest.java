package io.trainplane.local.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.aws.MotoServer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The differential test: {@link DifferentialScript}'s operations (the Runs table as
 * {@link io.trainplane.runs.RunsTable} creates it; puts, conditional puts that fail, replaces on
 * version and status, timeline and progress writes, claims and releases, updates with each
 * expression kind, queries on the table and on the status index with paging, deletes, scans)
 * against the twin's DynamoDB and against moto_server's: the same answers, the same
 * ConditionalCheckFailedExceptions, line by line.
 */
class SqliteDynamoDbMotoTest {
    @RegisterExtension
    static final MotoServer MOTO = new MotoServer();

    @Test
    void answersAsMotoDoes() throws java.io.IOException {
        List<String> twin;
        try (SqliteDynamoDb dynamo = SqliteDynamoDb.inMemory()) {
            twin = DifferentialScript.run(dynamo);
        }
        List<String> moto;
        try (DynamoDbClient dynamo = MOTO.client(DynamoDbClient.builder())) {
            moto = DifferentialScript.run(dynamo);
        }
        java.nio.file.Files.write(java.nio.file.Path.of("target", "dynamodb-differential-twin.txt"), twin);
        java.nio.file.Files.write(java.nio.file.Path.of("target", "dynamodb-differential-moto.txt"), moto);
        assertThat(String.join("\n", twin)).isEqualTo(String.join("\n", moto));
        assertThat(moto).hasSizeGreaterThan(40);
    }
}
