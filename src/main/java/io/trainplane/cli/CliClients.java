package io.trainplane.cli;

import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * The AWS clients of the commands that talk to a deployed stack (status, list, start, cancel).
 * {@link #standard()} uses the SDK's standard region and credentials chains, and the SDK honours
 * {@code AWS_ENDPOINT_URL}; tests hand {@link Main#commandLine(CliClients)} clients of their own.
 */
public interface CliClients {
    DynamoDbClient dynamoDb();

    CloudFormationClient cloudFormation();

    SfnClient sfn();

    /** The region of the clients (for console links). */
    String region();

    /** Clients built on first use from the standard chains. */
    static CliClients standard() {
        return new CliClients() {
            private final SdkHttpClient http = UrlConnectionHttpClient.create();
            private Region region;
            private DynamoDbClient dynamo;
            private CloudFormationClient cloudFormation;
            private SfnClient sfn;

            private Region resolvedRegion() {
                if (region == null) {
                    try {
                        region = DefaultAwsRegionProviderChain.builder().build().getRegion();
                    } catch (RuntimeException e) {
                        throw new UserInputException("no AWS region: set AWS_REGION or a region in your AWS profile");
                    }
                }
                return region;
            }

            @Override public synchronized DynamoDbClient dynamoDb() {
                if (dynamo == null) {
                    dynamo = DynamoDbClient.builder().httpClient(http).region(resolvedRegion())
                            .credentialsProvider(DefaultCredentialsProvider.builder().build()).build();
                }
                return dynamo;
            }

            @Override public synchronized CloudFormationClient cloudFormation() {
                if (cloudFormation == null) {
                    cloudFormation = CloudFormationClient.builder().httpClient(http).region(resolvedRegion())
                            .credentialsProvider(DefaultCredentialsProvider.builder().build()).build();
                }
                return cloudFormation;
            }

            @Override public synchronized SfnClient sfn() {
                if (sfn == null) {
                    sfn = SfnClient.builder().httpClient(http).region(resolvedRegion())
                            .credentialsProvider(DefaultCredentialsProvider.builder().build()).build();
                }
                return sfn;
            }

            @Override public String region() {
                return resolvedRegion().id();
            }
        };
    }
}
