package io.trainplane.clients;

import io.trainplane.aws.Settings;
import io.trainplane.aws.fsx.LustreFileSystems;
import io.trainplane.kubernetes.ClusterAccess;
import java.time.Clock;
import software.amazon.awssdk.services.cloudcontrol.CloudControlClient;
import software.amazon.awssdk.services.cloudwatchevents.CloudWatchEventsClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.efs.EfsClient;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.fsx.FSxClient;
import software.amazon.awssdk.services.sfn.SfnClient;

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

    /**
     * S3: StartRun copies a checkpoint to resume from into the run's own prefix. Only the AWS
     * functions ship its SDK module (the Kubernetes artifact does not).
     */
    software.amazon.awssdk.services.s3.S3Client s3();

    /** FSx for Lustre; only the AWS functions ship its SDK module (the Kubernetes artifact does not). */
    FSxClient fsx();

    /** FSx for Lustre as cleanup asks it, without the FSx SDK (the Kubernetes artifact's Teardown). */
    LustreFileSystems lustreFileSystems();

    /**
     * EC2's instance types and the Price List, asked by StartRun before anything is created
     * ({@link io.trainplane.aws.catalog.LiveInstanceFacts}).
     */
    io.trainplane.aws.catalog.InstanceCatalog instanceCatalog();

    /** The Cloud Control API: EC2 launch templates and placement groups, created by type name and JSON. */
    CloudControlClient cloudControl();

    /** EventBridge, under the SDK's older module name (see DESIGN §10). */
    CloudWatchEventsClient events();

    ClusterAccess clusters();

    /** Step Functions: the safety net and the janitor start the Cleanup state machine, the schedule the TrainingPipeline. */
    SfnClient sfn();

    /**
     * After a SnapStart restore: drops whatever must not outlive the snapshot (signed tokens). The
     * simulated cloud has nothing of the kind.
     */
    default void afterRestore() {}

    /** The Cleanup state machine's ARN: on AWS from {@code CLEANUP_STATE_MACHINE_ARN}, which template.yaml sets. */
    default String cleanupStateMachineArn() {
        String arn = System.getenv("CLEANUP_STATE_MACHINE_ARN");
        if (arn == null || arn.isBlank()) {
            throw new IllegalStateException(
                    "environment variable CLEANUP_STATE_MACHINE_ARN is not set; template.yaml sets it");
        }
        return arn;
    }

    /** The TrainingPipeline's ARN: on AWS from {@code TRAINING_PIPELINE_ARN}, which template.yaml sets for StartScheduledRun. */
    default String trainingPipelineArn() {
        String arn = System.getenv("TRAINING_PIPELINE_ARN");
        if (arn == null || arn.isBlank()) {
            throw new IllegalStateException(
                    "environment variable TRAINING_PIPELINE_ARN is not set; template.yaml sets it");
        }
        return arn;
    }
}
