package io.trainplane.aws;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.eks.EksClient;

/** The offline client answers through the SDK's own HTTP client and never reaches the network. */
class OfflineHttpClientTest {
    /** A host no resolver knows: a request that left would fail with UnknownHostException. */
    static final URI NOWHERE = URI.create("https://offline.invalid");

    final OfflineHttpClient offline = new OfflineHttpClient();

    @Test
    void answersEachOperationWithItsBodyOrAnEmptyObjectAndKeepsWhatWasSent() {
        try (DynamoDbClient dynamo = client(DynamoDbClient.builder());
                EksClient eks = client(EksClient.builder())) {
            offline.answer("DynamoDB_20120810.GetItem", "{\"Item\":{\"pk\":{\"S\":\"run\"}}}")
                    .answer("GET /clusters", "{\"clusters\":[\"tp-one\"]}");

            assertThat(dynamo.getItem(r -> r.tableName("Runs").key(Map.of("pk", AttributeValue.fromS("run"))))
                            .item())
                    .containsEntry("pk", AttributeValue.fromS("run"));
            assertThat(eks.listClusters(r -> {}).clusters()).containsExactly("tp-one");
            assertThat(eks.describeCluster(r -> r.name("tp-one")).cluster()).isNull();
            dynamo.putItem(r -> r.tableName("Runs").item(Map.of("pk", AttributeValue.fromS("written"))));
        }
        assertThat(offline.requests()).isEqualTo(4);
        assertThat(offline.services()).containsExactlyInAnyOrder("dynamodb", "eks");
        assertThat(offline.requestBodies("DynamoDB_20120810.PutItem"))
                .singleElement()
                .asString()
                .contains("\"written\"");
        assertThat(offline.requestBodies("GET /clusters/tp-one")).containsExactly("");
        assertThat(offline.requestBodies("DynamoDB_20120810.Query")).isEmpty();
    }

    private <
                    B extends
                            software.amazon.awssdk.awscore.client.builder.AwsClientBuilder<B, C>
                                    & software.amazon.awssdk.core.client.builder.SdkSyncClientBuilder<B, C>,
                    C>
            C client(B builder) {
        return builder.httpClient(offline)
                .endpointOverride(NOWHERE)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .build();
    }
}
