package io.trainplane.aws.eks;

import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.eks.EksServiceClientConfiguration;
import software.amazon.awssdk.services.eks.model.InvalidParameterException;
import software.amazon.awssdk.services.eks.model.ResourceInUseException;
import software.amazon.awssdk.services.eks.model.ResourceLimitExceededException;
import software.amazon.awssdk.services.eks.model.ResourceNotFoundException;

/**
 * A hand-written {@link EksClient} for the paths moto cannot reach (health issues, FAILED states,
 * quota and zone refusals): tests override the calls they need; every other call throws
 * UnsupportedOperationException (the SDK interface's default).
 */
class StubEks implements EksClient {
    @Override
    public EksServiceClientConfiguration serviceClientConfiguration() {
        return EksServiceClientConfiguration.builder().region(Region.US_EAST_1).build();
    }

    @Override
    public String serviceName() {
        return SERVICE_NAME;
    }

    @Override
    public void close() {}

    static ResourceNotFoundException notFound(String message) {
        return (ResourceNotFoundException) ResourceNotFoundException.builder()
                .message(message)
                .statusCode(404)
                .build();
    }

    static ResourceInUseException inUse(String message) {
        return (ResourceInUseException) ResourceInUseException.builder()
                .message(message)
                .statusCode(409)
                .build();
    }

    static ResourceLimitExceededException limit(String message) {
        return (ResourceLimitExceededException) ResourceLimitExceededException.builder()
                .message(message)
                .statusCode(400)
                .build();
    }

    static InvalidParameterException invalid(String message) {
        return (InvalidParameterException) InvalidParameterException.builder()
                .message(message)
                .statusCode(400)
                .build();
    }

    static AwsServiceException status(int code, String message) {
        return AwsServiceException.builder().message(message).statusCode(code).build();
    }
}
