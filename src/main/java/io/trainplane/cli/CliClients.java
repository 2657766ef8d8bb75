package io.trainplane.cli;

import io.trainplane.aws.EksTokens;
import io.trainplane.kubernetes.ClusterAccess;
import io.trainplane.kubernetes.EksClusterAccess;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * What the commands that talk to a deployed stack or read a run store need from outside (AWS
 * clients, the clusters' Kubernetes API, the environment, time). {@link #standard()} uses the
 * SDK's standard region and credentials chains, and the SDK honours {@code AWS_ENDPOINT_URL};
 * tests hand {@link Main#commandLine(CliClients)} their own (and a sleep that does not wait).
 */
public interface CliClients {
    DynamoDbClient dynamoDb();

    CloudFormationClient cloudFormation();

    SfnClient sfn();

    EksClient eks();

    /**
     * The stack's artifacts bucket, where {@code start} uploads a workload directory too large for
     * the ConfigMap route. The CLI's alone: the Lambda artifacts leave the S3 module out.
     */
    S3Client s3();

    /** The region of the clients (for console links). */
    String region();

    /** The Kubernetes API of an EKS cluster: DescribeCluster's endpoint and CA, an EKS bearer token. */
    default ClusterAccess clusters() {
        return new EksClusterAccess(
                eks(),
                new EksTokens(DefaultCredentialsProvider.builder().build(), Region.of(region()), Clock.systemUTC()));
    }

    /**
     * EC2's instance types and the Price List, which {@code plan --stack} and {@code start --stack}
     * ask as StartRun does: with the standard credentials, where the environment points them.
     */
    default io.trainplane.aws.catalog.InstanceCatalog instanceCatalog() {
        return io.trainplane.aws.catalog.AwsInstanceCatalog.of(
                UrlConnectionHttpClient.create(),
                DefaultCredentialsProvider.builder().build(),
                Region.of(region()),
                environment());
    }

    /** The environment variables ({@code TRAINPLANE_HOME} names the local store). */
    default Map<String, String> environment() {
        return System.getenv();
    }

    default Clock clock() {
        return Clock.systemUTC();
    }

    /** The person who can answer {@code start}'s prompt, if any. */
    default Terminal terminal() {
        return Terminal.system();
    }

    /** Waits between two looks of {@code watch}. */
    default void sleep(Duration duration) throws InterruptedException {
        Thread.sleep(duration);
    }

    /** Clients built on first use from the standard chains. */
    static CliClients standard() {
        return new CliClients() {
            private final SdkHttpClient http = UrlConnectionHttpClient.create();
            private Region region;
            private DynamoDbClient dynamo;
            private CloudFormationClient cloudFormation;
            private SfnClient sfn;
            private EksClient eks;
            private S3Client s3;

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

            @Override
            public synchronized DynamoDbClient dynamoDb() {
                if (dynamo == null) {
                    dynamo = DynamoDbClient.builder()
                            .httpClient(http)
                            .region(resolvedRegion())
                            .credentialsProvider(
                                    DefaultCredentialsProvider.builder().build())
                            .build();
                }
                return dynamo;
            }

            @Override
            public synchronized CloudFormationClient cloudFormation() {
                if (cloudFormation == null) {
                    cloudFormation = CloudFormationClient.builder()
                            .httpClient(http)
                            .region(resolvedRegion())
                            .credentialsProvider(
                                    DefaultCredentialsProvider.builder().build())
                            .build();
                }
                return cloudFormation;
            }

            @Override
            public synchronized SfnClient sfn() {
                if (sfn == null) {
                    sfn = SfnClient.builder()
                            .httpClient(http)
                            .region(resolvedRegion())
                            .credentialsProvider(
                                    DefaultCredentialsProvider.builder().build())
                            .build();
                }
                return sfn;
            }

            @Override
            public synchronized EksClient eks() {
                if (eks == null) {
                    eks = EksClient.builder()
                            .httpClient(http)
                            .region(resolvedRegion())
                            .credentialsProvider(
                                    DefaultCredentialsProvider.builder().build())
                            .build();
                }
                return eks;
            }

            @Override
            public synchronized S3Client s3() {
                if (s3 == null) {
                    s3 = S3Client.builder()
                            .httpClient(http)
                            .region(resolvedRegion())
                            .credentialsProvider(
                                    DefaultCredentialsProvider.builder().build())
                            .build();
                }
                return s3;
            }

            @Override
            public String region() {
                return resolvedRegion().id();
            }
        };
    }
}
