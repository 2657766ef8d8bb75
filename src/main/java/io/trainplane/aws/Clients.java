package io.trainplane.aws;

import io.trainplane.kubernetes.ClusterAccess;
import java.time.Clock;
import software.amazon.awssdk.services.cloudcontrol.CloudControlClient;
import software.amazon.awssdk.services.cloudwatchevents.CloudWatchEventsClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.efs.EfsClient;
import software.amazon.awssdk.services.eks.EksClient;

/**
 * Every client a step uses, from one place. {@link AwsClients} builds the real ones; local mode
 * hands in the simulated cloud through the same interface, so step code never knows where it runs.
 */
public interface Clients {
    Settings settings();

    Clock clock();

    DynamoDbClient dynamoDb();

    EksClient eks();

    EfsClient efs();

    /** The Cloud Control API: EC2 launch templates and placement groups, created by type name and JSON. */
    CloudControlClient cloudControl();

    /** EventBridge, under the SDK's older module name (see DESIGN §10). */
    CloudWatchEventsClient events();

    ClusterAccess clusters();
}
